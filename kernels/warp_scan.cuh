// Warp scans for Gaussian-wise rendering (a warp per pixel, a lane per
// Gaussian). Front to back, a pixel's transmittance before Gaussian k is the
// product of (1 - alpha) over the Gaussians before it: a prefix product over
// the lanes. Back to front, the backward's running colour is the affine
// recurrence accum' = alpha c + (1 - alpha) accum: a scan of affine maps.
// Lanes whose Gaussian does not blend pass the identity (1, or alpha 0).
#pragma once

#include <cuda_runtime.h>

namespace dwk {

constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kWarpLanes = 32;

__device__ __forceinline__ unsigned laneIndex() {
  return threadIdx.x % kWarpLanes;
}

// Product of `v` over lanes 0..lane (Hillis-Steele, five shuffles).
__device__ __forceinline__ float inclusiveProduct(float v, unsigned lane) {
#pragma unroll
  for (int offset = 1; offset < kWarpLanes; offset *= 2) {
    const float earlier = __shfl_up_sync(kFullWarp, v, offset);
    if (lane >= unsigned(offset))
      v *= earlier;
  }
  return v;
}

// The same over lanes 0..lane-1 (1 in lane 0).
__device__ __forceinline__ float exclusiveOf(float inclusive, unsigned lane,
                                             float identity) {
  const float earlier = __shfl_up_sync(kFullWarp, inclusive, 1);
  return lane == 0 ? identity : earlier;
}

// Sum over the warp, in every lane.
__device__ __forceinline__ float warpSum(float v) {
#pragma unroll
  for (int offset = kWarpLanes / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(kFullWarp, v, offset);
  return v;
}

// Maximum over the warp, in every lane.
__device__ __forceinline__ unsigned warpMax(unsigned v) {
#pragma unroll
  for (int offset = kWarpLanes / 2; offset > 0; offset /= 2)
    v = max(v, __shfl_xor_sync(kFullWarp, v, offset));
  return v;
}

// x -> add[k] + scale * x for each of N components (one scale): the maps of
// lanes 0..lane composed, lane 0's applied first.
template <int N> struct AffineMap {
  float add[N];
  float scale;
};

template <int N>
__device__ __forceinline__ AffineMap<N> inclusiveCompose(AffineMap<N> m,
                                                         unsigned lane) {
#pragma unroll
  for (int offset = 1; offset < kWarpLanes; offset *= 2) {
    AffineMap<N> earlier;
#pragma unroll
    for (int k = 0; k < N; ++k)
      earlier.add[k] = __shfl_up_sync(kFullWarp, m.add[k], offset);
    earlier.scale = __shfl_up_sync(kFullWarp, m.scale, offset);
    if (lane >= unsigned(offset)) {
      // m after earlier: add + scale * (earlier.add + earlier.scale * x).
#pragma unroll
      for (int k = 0; k < N; ++k)
        m.add[k] += m.scale * earlier.add[k];
      m.scale *= earlier.scale;
    }
  }
  return m;
}

// The composition over lanes 0..lane-1 (the identity in lane 0).
template <int N>
__device__ __forceinline__ AffineMap<N>
exclusiveOf(const AffineMap<N> &inclusive, unsigned lane) {
  AffineMap<N> m;
#pragma unroll
  for (int k = 0; k < N; ++k)
    m.add[k] = exclusiveOf(inclusive.add[k], lane, 0.0f);
  m.scale = exclusiveOf(inclusive.scale, lane, 1.0f);
  return m;
}

template <int N>
__device__ __forceinline__ AffineMap<N> broadcast(const AffineMap<N> &m,
                                                  int lane) {
  AffineMap<N> out;
#pragma unroll
  for (int k = 0; k < N; ++k)
    out.add[k] = __shfl_sync(kFullWarp, m.add[k], lane);
  out.scale = __shfl_sync(kFullWarp, m.scale, lane);
  return out;
}

} // namespace dwk
