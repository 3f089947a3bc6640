//===- Decisions.cu - Kernels for the batching decisions ------------------===//
//
// Part of the branches test (Branches.cu says how it is built and compared):
// one kernel per shape that distwar-rewrite batches since the decisions of
// test/decisions/{local-object-calls, uniform-constant-elements,
// grid-uniform-locals, continue-template-channels, local-pointer,
// both-arms}.cu. Every atomic value is >= 0.
//
// Kernel: shape (lit test) -> what VARIANT auto chose
//   localObjects: a local vector's `-=` and a local matrix's `J[i][j] = x`
//     (operator[] with assert) between the sites (local-object-calls.cu)
//     -> butterfly-uniform
//   uniformElements: constant elements of two kernel parameters and of a
//     __shared__ array, the same address in every lane
//     (uniform-constant-elements.cu) -> butterfly-uniform, one batch each
//     for the loop and the straight-line adds
//   gridUniformLocal: a field under `if (c_num > 3)`, c_num = min(CNum, C)
//     (grid-uniform-locals.cu) -> butterfly (the key is only likely
//     uniform), the field tracked
//   templateContinues: 3DGS-like, C = 3 channels a template parameter, a
//     continue between colour and geometry (continue-template-channels.cu)
//     -> butterfly-uniform, one batch of C + 3 slots
//   localPointer: `float *p = ga + id;` and `gb + pair * 2` read through
//     locals, lane-varying keys (local-pointer.cu) -> serial (DW0026)
//   bothArms: one address in both arms of a lane-dependent if, a shared
//     slot (both-arms.cu) -> butterfly-uniform
//
//===----------------------------------------------------------------------===//

#include "Branches.h"

#include <assert.h>
#include <cuda_runtime.h>

#ifndef DISTWAR_BRANCHES_NS
#error "define DISTWAR_BRANCHES_NS (the namespace of this variant)"
#endif

#define BLOCK 128

namespace DISTWAR_BRANCHES_NS {

struct Vec2 {
  float x, y;
  __device__ Vec2 &operator-=(const Vec2 &o) {
    x -= o.x;
    y -= o.y;
    return *this;
  }
};
struct Col2 {
  float v[2];
  __device__ float &operator[](int i) {
    assert(i < 2);
    return v[i];
  }
};
struct Mat2 {
  Col2 c[2];
  __device__ Col2 &operator[](int i) {
    assert(i < 2);
    return c[i];
  }
};

// Calls that write only locals between the sites.
__global__ void localObjects(float *ga, float *gb, float *gc, const float *x,
                             const int *ids, int n) {
  __shared__ int sid[BLOCK];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  sid[threadIdx.x] = ids[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    const int id = sid[j];
    Vec2 d{2.f + v, 1.f + v};
    atomicAdd(&ga[id], d.x);
    d -= Vec2{v, v};
    Mat2 J;
    J[0][1] = d.x * v;
    J[1][0] = d.y + v;
    atomicAdd(&gb[id], J[0][1]);
    atomicAdd(&gc[id], J[1][0]);
  }
}

// The same elements for every lane: two parameters' and a __shared__
// array's, in a loop of uniform trip count and in straight-line code.
__global__ void uniformElements(float *ga, float *gb, float *gc,
                                const float *x, int n) {
  __shared__ float acc[2];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 2)
    acc[threadIdx.x] = 0.f;
  __syncthreads();
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    atomicAdd(&ga[0], v);
    atomicAdd(&gb[1], v * v);
    atomicAdd(&ga[2], 2.f * v);
    atomicAdd(&acc[0], v);
    atomicAdd(&acc[1], 3.f * v);
  }
  __syncthreads();
  if (threadIdx.x < 2)
    gc[2 + blockIdx.x * 2 + threadIdx.x] = acc[threadIdx.x];
  const float w = x[tid * n];
  atomicAdd(&gb[3], w);
  atomicAdd(&gb[4], w * w);
  atomicAdd(&gc[1], 0.5f * w);
}

// A field under a condition on a local of grid-uniform values.
template <int CNum>
__global__ void gridUniformLocal(float *ga, float *gb, float *gc,
                                 const float *x, const int *ids, int n) {
  const int c_num = min(CNum, n);
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    const int id = ids[blockIdx.x * BLOCK + j];
    atomicAdd(&ga[id], v);
    if (c_num > 3)
      atomicAdd(&gb[id], 2.f * v);
    if (c_num > CNum)
      atomicAdd(&gc[id], 3.f * v);
  }
}

// 3DGS-like: colour channels a template parameter, then a per-lane
// continue, then the geometry fields.
template <int C>
__global__ void templateContinues(float *ga, float *gb, float *gc, float *out,
                                  const float *x, const float *thr,
                                  const int *ids, int n) {
  __shared__ int sid[BLOCK];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  sid[threadIdx.x] = ids[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  const float t = thr[tid];
  float T = 1.f;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    if (v < 0.2f * t)
      continue;
    const int id = sid[j] % 16;
    for (int ch = 0; ch < C; ch++)
      atomicAdd(&gc[id * C + ch], v * T * (ch + 1));
    T *= 1.f - 0.5f * v;
    if (v < t)
      continue;
    atomicAdd(&ga[id], v);
    atomicAdd(&gb[id], T);
    atomicAdd(&gb[id + 16], v * T);
  }
  out[tid] = T;
}

// Addresses kept in local pointers, keys that differ across lanes.
__global__ void localPointer(float *ga, float *gb, const float *x,
                             const int *ids, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    const int id = ids[(tid / 4 + j) % (BLOCK * gridDim.x)];
    float *p = ga + id;
    atomicAdd(p, v);
    const int pair = id / 2;
    float *q = gb + pair * 2;
    atomicAdd(q, v);
    atomicAdd(q + 1, 2.f * v);
  }
}

// One address in both arms of a lane-dependent if.
__global__ void bothArms(float *ga, float *gb, float *gc, const float *x,
                         const float *thr, const int *ids, int n) {
  __shared__ int sid[BLOCK];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  sid[threadIdx.x] = ids[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  const float t = thr[tid];
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    const int id = sid[j];
    if (v < t) {
      atomicAdd(&ga[id], v);
      atomicAdd(&gb[id], 2.f * v);
    } else {
      atomicAdd(&ga[id], 3.f * v);
    }
    atomicAdd(&gc[id], v * t);
  }
}

template __global__ void gridUniformLocal<4>(float *, float *, float *,
                                             const float *, const int *, int);
template __global__ void templateContinues<3>(float *, float *, float *,
                                              float *, const float *,
                                              const float *, const int *, int);

void launchDecisions(dwb::Kernel which, const dwb::Args &a) {
  const dim3 grid(a.blocks), block(BLOCK);
  switch (which) {
  case dwb::k_localObjects:
    localObjects<<<grid, block>>>(a.ga, a.gb, a.gc, a.x, a.ids, a.n);
    break;
  case dwb::k_uniformElements:
    uniformElements<<<grid, block>>>(a.ga, a.gb, a.gc, a.x, a.n);
    break;
  case dwb::k_gridUniformLocal:
    gridUniformLocal<4><<<grid, block>>>(a.ga, a.gb, a.gc, a.x, a.ids, a.n);
    break;
  case dwb::k_templateContinues:
    templateContinues<3><<<grid, block>>>(a.ga, a.gb, a.gc, a.out, a.x, a.thr,
                                          a.ids, a.n);
    break;
  case dwb::k_localPointer:
    localPointer<<<grid, block>>>(a.ga, a.gb, a.x, a.ids, a.n);
    break;
  case dwb::k_bothArms:
    bothArms<<<grid, block>>>(a.ga, a.gb, a.gc, a.x, a.thr, a.ids, a.n);
    break;
  default:
    break;
  }
}

} // namespace DISTWAR_BRANCHES_NS
