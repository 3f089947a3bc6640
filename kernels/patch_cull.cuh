// What the culled 3DGS render kernels share (gaussians_forward_culled.cu,
// gaussians_backward_culled.cu; docs/BALANCING.md, "Culled lists"): each
// warp of a 16x16 tile's block renders an 8x4 patch, and tests each batch
// of the tile's list against its patch, a Gaussian per lane, with one of the
// two tests of splat_cull.h.
#pragma once

#include "splat_cull.h"
#include "tiles.h"
#include "warp_scan.cuh"

#include <cstdint>

namespace dwk {

// Squarer than the original's two rows of 16, so that fewer Gaussians touch
// a warp's pixels.
constexpr int kPatchX = 8, kPatchY = 4;
static_assert(kPatchX * kPatchY == kWarpLanes && BLOCK_X % kPatchX == 0 &&
                  BLOCK_Y % kPatchY == 0,
              "a warp per patch, patches tiling the tile");

// Where thread `rank` of the block rendering tile `tile` works.
struct PatchPlace {
  int lane;
  uint2 patch_min; // the patch's first pixel
  uint2 pix;       // the thread's pixel

  __device__ PatchPlace(uint32_t tile, int W, int rank) {
    constexpr int kPatchesAcross = BLOCK_X / kPatchX;
    const uint32_t horizontal_blocks = (W + BLOCK_X - 1) / BLOCK_X;
    const int warp = rank / kWarpLanes;
    lane = rank % kWarpLanes;
    patch_min = {(tile % horizontal_blocks) * BLOCK_X +
                     (warp % kPatchesAcross) * kPatchX,
                 (tile / horizontal_blocks) * BLOCK_Y +
                     (warp / kPatchesAcross) * kPatchY};
    pix = {patch_min.x + lane % kPatchX, patch_min.y + lane / kPatchX};
  }
};

// The two tests: what the block computes per Gaussian when it fetches a
// batch (Key), and the test of a patch at (x0, y0) against it.
struct EllipseCull {
  using Key = float;
  static __device__ Key key(float2, float4 con_o) {
    return splatCutoff(con_o.w);
  }
  static __device__ bool mayBlend(Key cutoff, float2 m, float4 con_o, float x0,
                                  float y0) {
    return splatMayBlend(m.x, m.y, con_o.x, con_o.y, con_o.z, cutoff, x0,
                         x0 + (kPatchX - 1), y0, y0 + (kPatchY - 1));
  }
};

struct BoxCull {
  using Key = SplatBox;
  static __device__ Key key(float2 m, float4 con_o) {
    return splatBlendBox(m.x, m.y, con_o.x, con_o.y, con_o.z, con_o.w);
  }
  static __device__ bool mayBlend(const Key &box, float2, float4, float x0,
                                  float y0) {
    return boxMeets(box, x0, x0 + (kPatchX - 1), y0, y0 + (kPatchY - 1));
  }
};

// Bit l: batch entry 32 k + l may blend into the patch (entries before
// `first` or from `count` on are left out); lane l tests it. A word at a
// time, so that a warp holds one word of mask and can stop testing once its
// pixels are done.
template <typename Cull>
__device__ __forceinline__ uint32_t cullWord(const typename Cull::Key *key,
                                             const float2 *xy,
                                             const float4 *con_o, int k,
                                             int first, int count,
                                             const PatchPlace &at) {
  const int j = k * kWarpLanes + at.lane;
  const bool may = j >= first && j < count &&
                   Cull::mayBlend(key[j], xy[j], con_o[j],
                                  float(at.patch_min.x), float(at.patch_min.y));
  return __ballot_sync(kFullWarp, may);
}

} // namespace dwk
