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
//          plain atomics at every other site (it is above kNeverReduce);
//   kSerialForm + 0..32: the same thresholds, and at a site written with
//          both forms (reduceButterflyOrSerial, distwar/reduce.cuh) the
//          serial form instead of the butterfly; a site written with one
//          form takes its threshold and ignores the form.
// A value is written "T" or, with the serial form, "serial:T" (the
// environment's syntax, and the report's: distwar/environment.h).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_THRESHOLD_VALUES_H
#define DISTWAR_THRESHOLD_VALUES_H

#include <cstddef>
#include <vector>

namespace distwar {

/// Threshold value that disables reduction: every lane issues plain atomics.
constexpr int kNeverReduce = 33;

/// Site value that selects the block strategy at a block-capable site
/// (reduceBlock); every other reduction treats it as plain atomics.
constexpr int kBlockStrategy = 34;

/// The bit of a site value that asks for the serial form where a site has
/// both forms. A bit, so that the device takes the threshold with one AND.
constexpr int kSerialForm = 64;

/// The plain threshold values a site may be set to (without the form bit).
constexpr int kMinThreshold = 0;
constexpr int kMaxThreshold = kBlockStrategy;

/// The threshold of a site value (the form bit cleared).
constexpr int thresholdOf(int value) { return value & ~kSerialForm; }

/// Whether a site value asks for the serial form.
constexpr bool asksSerialForm(int value) { return (value & kSerialForm) != 0; }

/// Whether `value` is a value a site may hold: 0..34, or kSerialForm with a
/// warp threshold 0..32 (a form means nothing at 33 or 34).
constexpr bool isSiteValue(int value) {
  return (value >= kMinThreshold && value <= kMaxThreshold) ||
         (value >= kSerialForm && value < kSerialForm + kNeverReduce);
}

/// Whether `t` is a warp threshold that a search steps through: 1..33
/// (0 behaves as 1), in either form. kBlockStrategy is not one of them: it
/// is a candidate of its own, never a neighbour of 33.
constexpr bool isWarpThreshold(int t) {
  return (t >= 1 && t <= kNeverReduce) ||
         (t >= kSerialForm + 1 && t < kSerialForm + kNeverReduce);
}

/// The same threshold in the other form (33 has no form: itself).
constexpr int otherForm(int t) {
  return thresholdOf(t) >= kNeverReduce ? t : t ^ kSerialForm;
}

/// Threshold `t` (0..33) in the form of site value `like` (33 has none).
constexpr int inFormOf(int t, int like) {
  return asksSerialForm(like) && t < kNeverReduce ? kSerialForm | t : t;
}

/// `candidates` and, after them, each warp threshold below 33 among them in
/// the serial form: a search's candidates at a launch with a two-form site.
inline std::vector<int> withSerialForm(std::vector<int> candidates) {
  const std::size_t n = candidates.size();
  for (std::size_t i = 0; i < n; ++i)
    if (isWarpThreshold(candidates[i]) && candidates[i] < kNeverReduce)
      candidates.push_back(kSerialForm | candidates[i]);
  return candidates;
}

} // namespace distwar

#endif // DISTWAR_THRESHOLD_VALUES_H
