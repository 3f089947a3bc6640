// The launches of the culled 3DGS render kernels (gaussians_forward_culled.cu,
// gaussians_backward_culled.cu), for the dispatchers of
// gaussians_forward_balanced.cu and gaussians_backward_balanced.cu. Each runs
// the original kernel with each warp dropping the Gaussians its pixels
// cannot see: one block per tile, or, when `dynamic`, persistent blocks
// drawing the tiles of `pool` (its order set).
#pragma once

#include "gaussians_balance.h"
#include "gaussians_forward_args.cuh"

namespace dwk {

// How a warp decides that its pixels cannot see a Gaussian (splat_cull.h).
enum class CullTest { kEllipse, kBox };

void launchCulledForward(const ForwardArgs &a, CullTest test, bool dynamic,
                         const TilePool &pool, cudaStream_t stream);

// The box test only: the backward is bound by its atomics, and the ellipse
// test's tighter lists gained nothing there (bench/RESULTS.md).
void launchCulledBackward(const GaussianBackwardArgs &a, bool dynamic,
                          const TilePool &pool, cudaStream_t stream);

} // namespace dwk
