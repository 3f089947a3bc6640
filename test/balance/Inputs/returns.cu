// Early returns in tile kernels: which may end the lane's tile in the
// persistent loop, and which must keep the kernel as written.
#include <cuda_runtime.h>

#define SKIP_IF(c)                                                             \
  if (c)                                                                       \
  return

__device__ void finish(float *out, int i) { out[i] = 0.0f; }

// No barrier at all: the returned lane waits at the loop's barrier, and no
// other lane waits anywhere else. Balanced.
__global__ void clampedCopy(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = in[i];
}

// The whole block returns together (a block-uniform condition), then a
// barrier: balanced.
__global__ void tileGuard(float *out, const float *in, int tiles) {
  __shared__ float stage[128];
  if (blockIdx.x >= tiles)
    return;
  stage[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = stage[127 - threadIdx.x];
}

// Barriers first, the per-lane return after the last one: balanced.
__global__ void lateReturn(float *out, const float *in, int n) {
  __shared__ float stage[128];
  const int i = blockIdx.x * 128 + threadIdx.x;
  stage[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i >= n)
    return;
  out[i] = stage[127 - threadIdx.x];
}

// A void kernel returning a void call: the call stays, the tile ends.
__global__ void returnsCall(float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return finish(out, 0);
  out[i] = 1.0f;
}

// A lane returns, the others go on to a barrier: in the loop the returned
// lane would wait at the loop's barrier while the others wait at this one.
__global__ void earlyExit(float *out, const float *in, int n) {
  __shared__ float stage[128];
  const int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= n)
    return;
  stage[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = stage[127 - threadIdx.x];
}

// A return inside a loop whose next round has a barrier.
__global__ void returnInLoop(float *out, const float *in, int rounds) {
  __shared__ float stage[128];
  for (int r = 0; r < rounds; ++r) {
    stage[threadIdx.x] = in[(blockIdx.x * rounds + r) * 128 + threadIdx.x];
    __syncthreads();
    if (stage[threadIdx.x] < 0.0f)
      return;
    out[blockIdx.x * 128 + threadIdx.x] += stage[threadIdx.x];
  }
}

// A return written in a macro: the rewrite cannot make it end the tile.
__global__ void macroReturn(float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  SKIP_IF(i >= n);
  out[i] = 2.0f;
}

// A lane returns, the others shuffle with every lane of the warp: the
// returned lane, waiting at the loop's barrier, would be waited for.
__global__ void warpAfterReturn(float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = __shfl_xor_sync(0xffffffffu, out[i], 1);
}

void launchAll(float *out, const float *in, int n) {
  const int blocks = (n + 127) / 128;
  clampedCopy<<<blocks, 128>>>(out, in, n);
  tileGuard<<<blocks, 128>>>(out, in, blocks / 2);
  lateReturn<<<blocks, 128>>>(out, in, n);
  returnsCall<<<blocks, 128>>>(out, n);
  earlyExit<<<blocks, 128>>>(out, in, n);
  returnInLoop<<<blocks, 128>>>(out, in, 4);
  macroReturn<<<blocks, 128>>>(out, n);
  warpAfterReturn<<<blocks, 128>>>(out, n);
}
