// Grids of one, two and three dimensions, gridDim read in the body (a
// grid-stride loop, a linear block number), a kernel without parameters,
// launches written in the ways host code writes them.
#include <cuda_runtime.h>

__device__ int stamps[4096];

// 3D: the linear block number from all three indices and the grid's size.
__global__ void volume(float *out, const float *in, int nx, int ny, int nz) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y;
  const int z = blockIdx.z;
  const int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (x < nx && y < ny && z < nz)
    out[(z * ny + y) * nx + x] = in[(z * ny + y) * nx + x] + block;
}

// A grid-stride loop: the stride is the ORIGINAL grid's.
__global__ void scale(float *v, int n, float by) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    v[i] *= by;
}

// No parameters: the new ones go between the empty parentheses.
__global__ void stamp() {
  if (threadIdx.x == 0 && blockIdx.x < 4096)
    stamps[blockIdx.x] = gridDim.x;
}

void run(float *out, const float *in, int nx, int ny, int nz, float *v, int n,
         cudaStream_t stream) {
  dim3 grid((nx + 127) / 128, ny, nz);
  volume<<<grid, 128, 0, stream>>>(out, in, nx, ny, nz);
  if (n > 0)
    scale<<<(n + 255) / 256, 256>>>(v, n, 2.0f);
  stamp<<<64, 32>>>();
}
