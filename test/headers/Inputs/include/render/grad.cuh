// Gradients of one primitive, shared by several kernels.
#ifndef RENDER_GRAD_CUH
#define RENDER_GRAD_CUH

#include "params.cuh"

__device__ inline void addGrad(float3 *dmean, float *dop, int id, float3 d,
                               float o) {
  atomicAdd(&dmean[id].x, d.x);
  atomicAdd(&dmean[id].y, d.y);
  atomicAdd(&dmean[id].z, d.z);
  atomicAdd(&dop[id], o * kOpacityScale);
}

// A do-while(0) macro in a header, used in a header.
#define ADD2(buf, i, a, b)                                                     \
  do {                                                                         \
    atomicAdd(&buf[(i) * 2], a);                                               \
    atomicAdd(&buf[(i) * 2 + 1], b);                                           \
  } while (0)
template <typename T>
__device__ void addPair(T *buf, int id, T a, T b) {
  ADD2(buf, id, a, b);
}

#endif // RENDER_GRAD_CUH
