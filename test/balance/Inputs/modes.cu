// Each launch of a balanced kernel takes the instance of the mode its
// launch chose (the mode the kernel's first template parameter), where it
// can name one: every form a launch may take here.
#include <cuda_runtime.h>

// A template: the mode goes before its parameters, the launch's written
// arguments keep their place, a defaulted one stays defaulted.
template <int C, typename T = float>
__global__ void scaled(T *v) {
  v[blockIdx.x * C + threadIdx.x] = T(C);
}

// Not a template: it becomes one.
static __global__ void __launch_bounds__(64) plain(float *v) {
  v[blockIdx.x * 64 + threadIdx.x] = 1.0f;
}

// C linkage cannot be a template: one instance, the pool tested at run time.
extern "C" __global__ void unmangled(float *v) { v[blockIdx.x] = 2.0f; }

// A launch that takes a default argument cannot go through a pointer: it
// launches the dynamic instance.
__global__ void defaulted(float *v, float x = 3.0f) { v[blockIdx.x] = x; }

// Launched from a host template with a dependent argument.
template <int C> __global__ void dependent(float *v) {
  v[blockIdx.x] = float(C);
}
template <int C> void launchDependent(float *v, cudaStream_t s) {
  dependent<C><<<4, 32, 0, s>>>(v);
}

void launchAll(float *v, double *d, cudaStream_t s) {
  scaled<2><<<4, 32>>>(v);
  scaled<3, double><<<dim3(4, 2), 32, 0, s>>>(d);
  plain<<<4, 64>>>(v);
  unmangled<<<4, 32>>>(v);
  defaulted<<<4, 32>>>(v);
  defaulted<<<4, 32>>>(v, 4.0f);
  launchDependent<5>(v, s);
}
