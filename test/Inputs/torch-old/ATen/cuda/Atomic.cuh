// Self-written stand-in for PyTorch's ATen/cuda/Atomic.cuh as older torch
// releases lay it out: gpuAtomicAdd declared here, overloaded per type.
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
inline __device__ int gpuAtomicAdd(int *address, int val) {
  return atomicAdd(address, val);
}
