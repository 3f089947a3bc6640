// Integer sums, so that every launch is checked exactly whatever threshold
// the tuner picks: thresholds change how the sums are issued, never what
// is added.
#include "Accumulate.h"

__global__ void accumulate(unsigned long long *sums,
                           unsigned long long *squares, const int *keys,
                           const unsigned *values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int k = keys[i];
    const unsigned long long v = values[i];
    atomicAdd(&sums[k], v);
    atomicAdd(&squares[k], v * v);
  }
}

void launchAccumulate(const AccumulateArgs &a, cudaStream_t stream) {
  accumulate<<<(a.n + 255) / 256, 256, 0, stream>>>(a.sums, a.squares, a.keys,
                                                    a.values, a.n);
}
