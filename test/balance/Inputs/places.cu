// A batched kernel moves the lines of the batched text the tile pass reads
// (test/balance/places.test); a reason's place is still the user's line.
#include <cuda_runtime.h>

__global__ void sums(float *g, const int *__restrict__ id,
                     const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i] * 2 + 0], v[i]);
  atomicAdd(&g[id[i] * 2 + 1], v[i]);
}

__global__ void fenced(float *v) {
  v[blockIdx.x] = 1.0f;
  __threadfence();
}

void run(float *g, const int *id, const float *v) {
  sums<<<4, 32>>>(g, id, v);
  fenced<<<4, 32>>>(g);
}
