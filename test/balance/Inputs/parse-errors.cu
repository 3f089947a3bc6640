// Clang errors where nvcc reports none (test/balance/parse-errors.test): a
// call Clang finds ambiguous and nvcc resolves, an attribute nvcc ignores.
// The kernels they reach stay as written; the others are balanced.
#include <cuda_runtime.h>

__device__ float blend(float a, float b) { return a + b; }
__device__ double blend(double a, double b) { return a * b; }

// Unrelated to every kernel.
__device__ float unrelated(float a, double b) { return blend(a, b); }

__global__ void scale(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= 2.0f;
}

// The error in the kernel's own body.
__global__ void mixed(float *v, double w) {
  v[blockIdx.x] = blend(v[blockIdx.x], w);
}

__device__ float mixHelper(float a, double b) { return blend(a, b); }

// The error in a function the kernel calls.
__global__ void viaHelper(float *v, double w) {
  v[blockIdx.x] = mixHelper(v[blockIdx.x], w);
}

// The error in the host function that launches the kernel.
__global__ void fromBrokenHost(float *v) { v[blockIdx.x] = 1.0f; }

void launchBroken(float *v, int n) {
  int last = 0;
  [[maybe_unused]] last = n;
  fromBrokenHost<<<n, 128>>>(v);
}

// Names two kernels Clang could not parse, but holds no error itself: its
// launch of scale is rewritten.
void launchAll(float *v, double w, int n, cudaStream_t stream) {
  scale<<<(n + 127) / 128, 128, 0, stream>>>(v, n);
  mixed<<<n, 32, 0, stream>>>(v, w);
  viaHelper<<<n, 32, 0, stream>>>(v, w);
}
