//===- distwar/threshold_values.h - What a site threshold means -----------===//
//
// The values a batched site's threshold takes, shared by the device
// reductions and by the host code that sets, parses and tunes them (so free
// of CUDA):
//   0..32  warp reductions: reduce when at least that many lanes take part
//          (0 and 1 behave the same: a call always has a lane);
//   33     kNeverReduce: plain atomics;
//   34     kBlockStrategy: at a site that can accumulate in shared memory
//          (reduceBlock, distwar/block_reduce.cuh), the block strategy;
//          plain atomics at every other site (it is above kNeverReduce).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_THRESHOLD_VALUES_H
#define DISTWAR_THRESHOLD_VALUES_H

namespace distwar {

/// Threshold value that disables reduction: every lane issues plain atomics.
constexpr int kNeverReduce = 33;

/// Site value that selects the block strategy at a block-capable site
/// (reduceBlock); every other reduction treats it as plain atomics.
constexpr int kBlockStrategy = 34;

/// The values a site threshold may be set to.
constexpr int kMinThreshold = 0;
constexpr int kMaxThreshold = kBlockStrategy;

/// Whether `t` is a warp threshold that a search steps through: 1..33
/// (0 behaves as 1). kBlockStrategy is not one of them: it is a candidate
/// of its own, never a neighbour of 33.
constexpr bool isWarpThreshold(int t) { return t >= 1 && t <= kNeverReduce; }

} // namespace distwar

#endif // DISTWAR_THRESHOLD_VALUES_H
