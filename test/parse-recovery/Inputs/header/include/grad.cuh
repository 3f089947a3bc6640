#pragma once
// A kernel whose atomics can be batched, one that calls a function using a
// name nvcc knows and Clang does not, and that function.
__global__ void addAll(float *g, float *h, const int *id,
                       const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}

__device__ inline bool visible(int *flags, int id) {
  return __nv_atomic_load_n(&flags[id], __NV_ATOMIC_RELAXED,
                            __NV_THREAD_SCOPE_DEVICE) == 0;
}

__global__ void addVisible(int *flags, float *g, float *h, const int *id,
                           const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!visible(flags, id[i]))
    return;
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}
