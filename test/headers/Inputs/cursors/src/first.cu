// A kernel with a cursor of its own before the header is included.
__global__ void own(float *g, const int *ids, int n) {
  __shared__ int sid[64];
  sid[threadIdx.x % 64] = ids[threadIdx.x % 64];
  __syncthreads();
  for (int j = 0; j < min(64, n); j++) {
    atomicAdd(&g[2 * sid[j]], 3.f);
    atomicAdd(&g[2 * sid[j] + 1], 4.f);
  }
}

#include "scatter.cuh"
