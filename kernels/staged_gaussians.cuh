// What the hand-written 3DGS backward kernels stage in shared memory of
// each Gaussian a pixel's step reads (gaussians_backward_balanced.cu,
// gaussians_backward_culled.cu): the original's fetch, and the inverse
// depth, which the original divides per pair (the same division, once).
#pragma once

#include "gaussians.h"

#include <cstdint>

namespace dwk {

template <int N> struct StagedGaussians {
  int id[N];
  float2 xy[N];
  float4 con_o[N];
  float color[NUM_CHANNELS][N];
  float invdepth[N];

  // Slot k gets the Gaussian at list position j (none where j is past
  // `end`); the inverse depth only where the depth loss is on.
  __device__ void stage(const GaussianBackwardArgs &a, int k, uint32_t j,
                        uint32_t end) {
    id[k] = -1;
    if (j >= end)
      return;
    const int g = a.point_list[j];
    id[k] = g;
    xy[k] = a.means2D[g];
    con_o[k] = a.conic_opacity[g];
    for (int ch = 0; ch < NUM_CHANNELS; ch++)
      color[ch][k] = a.colors[g * NUM_CHANNELS + ch];
    if (a.dL_dinvdepths)
      invdepth[k] = 1.f / a.depths[g];
  }
};

} // namespace dwk
