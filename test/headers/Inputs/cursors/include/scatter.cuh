// A kernel that walks a __shared__ array of ids: its loop gets a cursor.
#ifndef SCATTER_CUH
#define SCATTER_CUH

__global__ void addPairs(float *g, const int *ids, int n) {
  __shared__ int sid[64];
  sid[threadIdx.x % 64] = ids[threadIdx.x % 64];
  __syncthreads();
  for (int j = 0; j < min(64, n); j++) {
    atomicAdd(&g[2 * sid[j]], 1.f);
    atomicAdd(&g[2 * sid[j] + 1], 2.f);
  }
}

#endif // SCATTER_CUH
