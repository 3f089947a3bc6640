// The launchers of splat_backward.cu: the rewritten kernel and the original.
#pragma once

#include <cuda_runtime.h>

#define SPLAT_TILE 16
#define SPLAT_CHANNELS 3

struct SplatBackwardArgs {
  int width, height;
  const int2 *tile_ranges; // [tiles] start, end in tile_list
  const int *tile_list;    // Gaussian ids, per tile
  const int *n_contrib;    // [H*W] how many of its tile's list a pixel sees
  const float2 *means;     // [P]
  const float3 *conics;    // [P] a, b, c of the inverse 2D covariance
  const float *opacities;  // [P]
  const float *colors;     // [P, 3]
  const float *dL_dpixels; // [3, H, W]
  float *dL_dmeans;        // [P, 2], accumulated into
  float *dL_dconics;       // [P, 3], accumulated into
  float *dL_dopacities;    // [P], accumulated into
  float *dL_dcolors;       // [P, 3], accumulated into
};

// distwar-rewrite's copy of splat_backward.cu.
void launch_splat_backward(const SplatBackwardArgs &args, cudaStream_t stream);
namespace plain {
// The same source, not rewritten (splat_backward_plain.cu).
void launch_splat_backward(const SplatBackwardArgs &args, cudaStream_t stream);
} // namespace plain
