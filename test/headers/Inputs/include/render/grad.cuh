// Gradients of one primitive, shared by several kernels.
#ifndef RENDER_GRAD_CUH
#define RENDER_GRAD_CUH

#include "params.cuh"

// g points at the primitive's four gradient slots (each lane its own).
__device__ inline void addGrad(float *g, float3 d, float o) {
  atomicAdd(&g[0], d.x);
  atomicAdd(&g[1], d.y);
  atomicAdd(&g[2], d.z);
  atomicAdd(&g[3], o * kOpacityScale);
}

// A do-while(0) macro in a header, used in a header.
#define ADD2(buf, a, b)                                                        \
  do {                                                                         \
    atomicAdd(&buf[0], a);                                                     \
    atomicAdd(&buf[1], b);                                                     \
  } while (0)
template <typename T>
__device__ void addPair(T *buf, T a, T b) {
  ADD2(buf, a, b);
}

#endif // RENDER_GRAD_CUH
