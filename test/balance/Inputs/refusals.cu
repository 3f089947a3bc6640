// Kernels whose blocks are not independent tiles, or whose block index or
// launches the rewrite cannot reach: each stays as written, with its reason.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

#define BLOCK_NUMBER (blockIdx.x)

__device__ unsigned ticket;
__device__ int tileOf() { return blockIdx.x; }

// A grid-wide barrier: every block must be resident at once.
__global__ void gridSync(float *v) {
  cg::grid_group grid = cg::this_grid();
  v[blockIdx.x] = 1.0f;
  grid.sync();
  v[blockIdx.x] += v[(blockIdx.x + 1) % gridDim.x];
}

// The last block to finish (a ticket on a global counter) sums the rest.
__global__ void lastBlockSums(float *partial, float *total) {
  partial[blockIdx.x] = threadIdx.x;
  __threadfence();
  __shared__ bool last;
  if (threadIdx.x == 0)
    last = atomicAdd(&ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0)
    for (unsigned b = 0; b < gridDim.x; ++b)
      *total += partial[b];
}

// A fence alone: a protocol between blocks the rewrite cannot see whole.
__global__ void fenced(float *v, volatile int *flag) {
  v[blockIdx.x] = 1.0f;
  __threadfence();
  if (threadIdx.x == 0)
    flag[blockIdx.x] = 1;
}

// The block index read in a function the kernel calls.
__global__ void viaHelper(float *v) { v[tileOf() * 32 + threadIdx.x] = 0.0f; }

// The block index read in a macro's body.
__global__ void viaMacro(float *v) { v[BLOCK_NUMBER * 32 + threadIdx.x] = 0.0f; }

// An atomic on shared memory whose result is used: the block's own memory,
// no order between blocks. Balanced.
__global__ void sharedCounter(int *out) {
  __shared__ int slots;
  if (threadIdx.x == 0)
    slots = 0;
  __syncthreads();
  const int mine = atomicAdd(&slots, 1);
  out[blockIdx.x * 32 + mine] = threadIdx.x;
}

// Its address is taken for cudaFuncSetAttribute: its parameters must stay.
__global__ void configured(float *v) { v[blockIdx.x * 32 + threadIdx.x] = 0.0f; }

// Never launched in this file.
__global__ void launchedElsewhere(float *v) { v[blockIdx.x] = 0.0f; }

// Every block does the same thing: nothing to balance.
__global__ void sameEverywhere(float *v) { v[threadIdx.x] = 0.0f; }

// An overloaded name: the launch's pointer to its instance would be
// ambiguous.
__global__ void overloaded(float *v) { v[blockIdx.x] = 0.0f; }
__global__ void overloaded(int *v) { v[blockIdx.x] = 0; }

// Its template argument is deduced from the launch's arguments: the launch
// names no one instance.
template <typename T> __global__ void deduced(T *v) { v[blockIdx.x] = T(); }

void launchAll(float *v, float *total, int *out, volatile int *flag) {
  gridSync<<<8, 32>>>(v);
  lastBlockSums<<<8, 32>>>(v, total);
  fenced<<<8, 32>>>(v, flag);
  viaHelper<<<8, 32>>>(v);
  viaMacro<<<8, 32>>>(v);
  sharedCounter<<<8, 32>>>(out);
  cudaFuncSetAttribute(configured, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  configured<<<8, 32>>>(v);
  sameEverywhere<<<8, 32>>>(v);
  overloaded<<<8, 32>>>(v);
  overloaded<<<8, 32>>>(out);
  deduced<<<8, 32>>>(v);
}
