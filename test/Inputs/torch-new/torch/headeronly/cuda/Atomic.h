// Self-written stand-in for newer PyTorch's torch/headeronly/cuda/Atomic.h,
// which declares gpuAtomicAdd (ATen/cuda/Atomic.cuh only includes it).
#pragma once
// Like torch's Half: its operators make `p + i` on a `T *` an unresolved
// operator call in templates.
struct Half { unsigned short bits; };
__device__ Half operator+(Half a, Half b);
__device__ bool operator!=(Half a, Half b);
inline __device__ float gpuAtomicAdd(float *address, float val) {
  return atomicAdd(address, val);
}
inline __device__ double gpuAtomicAdd(double *address, double val) {
  return atomicAdd(address, val);
}
inline __device__ void gpuAtomicAdd(short *address, short val) {}
