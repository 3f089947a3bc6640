// Load-balanced versions of the 3DGS render stage (Balanced-3DGS; what each
// does and when each wins: docs/BALANCING.md). Hand-written reference
// kernels, not tool output; the original kernels (gaussians_forward.cu,
// gaussians_backward.cu) stay as their authors write them.
#pragma once

#include "gaussians.h"

#include <distwar/tiles.cuh>

#include <cstdint>
#include <vector>

namespace dwk {

enum class ForwardKernel {
  kOriginal,         // one block per 16x16 tile, a thread per pixel
  kDynamicTiles,     // the same, persistent blocks drawing tiles (4.1)
  kGaussianWise,     // a warp per pixel, lanes on Gaussians, static (4.2)
  kFineGrained2x2,   // a warp per pixel, blocks drawing 2x2 pixels (4.3)
  kFineGrained4x2,   // the same with 4x2 pixels per block
  kFineGrained4x4,   // the same with 4x4 pixels per block
  kSplitHeavy,       // heavy tiles as fine-4x2, the others as dynamic-tiles
  kCulled,           // the original, each warp skipping what its 8x4 pixels
                     // cannot see (splat_cull.h, the ellipse test)
  kCulledDynamic,    // the same, persistent blocks drawing tiles
  kCulledBox,        // kCulled with the box test
  kCulledBoxDynamic, // the same, persistent blocks drawing tiles
};

enum class BackwardKernel {
  kOriginal,          // gaussians_backward.cu, plain atomics
  kDynamicTiles,      // the same, persistent blocks drawing tiles
  kFineGrained,       // a warp per pixel (4x2 per block), per-lane atomics
  kFineGrainedSummed, // the same, the block's 8 pixels summed per Gaussian
  kSplitHeavy,        // heavy tiles as kFineGrained, the others as dynamic
  kCulledBox,         // the original, each warp skipping what its 8x4
                      // pixels did not blend (splat_cull.h, the box test)
  kCulledBoxDynamic,  // the same, persistent blocks drawing tiles
};

const std::vector<ForwardKernel> &allForwardKernels();
const std::vector<BackwardKernel> &allBackwardKernels();
const char *name(ForwardKernel k);
const char *name(BackwardKernel k);

// What the persistent kernels need beyond the scene: a tile queue (one per
// stream; launches on one stream share it) and the tiles in the order they
// are drawn, heaviest first.
class TilePool {
public:
  // A tile is heavy above this many times the mean Gaussian count.
  static constexpr float kHeavyFactor = 8;

  // Orders the 16x16 tiles of `bins` by their Gaussian count, descending
  // (by powers of two: one bucket per highest bit), the heavy tiles (over
  // `heavyFactor` times the mean) first of all, on `stream`. Once per
  // binning, before any dynamic launch.
  void orderHeavyFirst(const TileBins &bins, int W, int H,
                       cudaStream_t stream, float heavyFactor = kHeavyFactor);
  // The tiles in launch order (x fastest), none heavy: what the hardware's
  // own block scheduler hands out, so that a persistent launch on this pool
  // shows what the draws cost, and heaviest first what the order buys.
  void orderAsLaunched(int W, int H, cudaStream_t stream);

  distwar::TileQueue *queue() const { return queue_.get(); }
  const uint32_t *order() const { return order_.data(); }
  // On the device: how many of order()'s first tiles are heavy.
  const uint32_t *heavyTiles() const { return heavy_.data(); }
  size_t tiles() const { return order_.size(); }

private:
  // Its order stays null: the kernels map a drawn index through order()
  // themselves (a tile's pieces share one entry).
  distwar::TileQueueOwner queue_;
  DeviceBuffer<uint32_t> order_;
  DeviceBuffer<uint32_t> heavy_;
};

// The forward outputs of `d` (final_T, n_contrib, out_color, out_invdepth)
// by kernel `k`; the dynamic kernels need pool.orderHeavyFirst() after the
// binning.
void renderForward(GaussianDeviceScene &d, ForwardKernel k, TilePool &pool,
                   cudaStream_t stream);

// The gradients of `a` (added into: zero them first) by kernel `k`.
void renderBackward(const GaussianBackwardArgs &a, BackwardKernel k,
                    TilePool &pool, cudaStream_t stream);

} // namespace dwk
