//===- distwar/threshold.cuh - A threshold the whole warp agrees on ------===//
//
// The reductions decide per warp between reducing and plain atomics by
// comparing the active-lane count with a threshold. Every lane must make the
// same decision: a warp split between shuffles and plain atomics would
// shuffle with lanes that never arrive. A plain `int` threshold may differ
// between lanes (it is the caller's value), so the reductions vote on the
// comparison (`__all_sync`, one instruction and a dependency per call).
//
// UniformThreshold is a threshold that is the same in every lane by how it
// was made: DISTWAR_SITE_THRESHOLD reads a `__constant__` site table at an
// index that must be a constant expression. The reductions compare it without
// a vote. It converts to int (the threshold), so it can be stored or printed
// like one. It keeps the site value's form bit (distwar/threshold_values.h):
// a site written with both forms reads it to pick one, warp-uniformly too.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_THRESHOLD_CUH
#define DISTWAR_THRESHOLD_CUH

#include "distwar/threshold_values.h"

namespace distwar {

class UniformThreshold {
public:
  /// `value` must be the same in every lane of the warp (see the file
  /// comment); DISTWAR_SITE_THRESHOLD is the way rewritten code makes one.
  __device__ __forceinline__ static UniformThreshold trusted(int value) {
    return UniformThreshold(value);
  }
  /// The threshold, without the form bit.
  __device__ __forceinline__ int value() const { return Value & ~kSerialForm; }
  __device__ __forceinline__ operator int() const { return value(); }
  /// Whether the site asks for the serial form (where it has both).
  __device__ __forceinline__ bool serialForm() const {
    return (Value & kSerialForm) != 0;
  }

private:
  __device__ __forceinline__ explicit UniformThreshold(int value)
      : Value(value) {}
  int Value;
};

namespace detail {

/// Whether `count` reaches `threshold` in every lane of `mask` (all lanes in
/// `mask` call together). An int threshold is voted on; a UniformThreshold is
/// the same everywhere, and so is `count` when the callers pass one computed
/// from a warp-wide ballot or mask, so no vote is needed.
__device__ __forceinline__ bool allReach(unsigned mask, int count,
                                         int threshold) {
  return __all_sync(mask, count >= threshold);
}
__device__ __forceinline__ bool allReach(unsigned, int count,
                                         UniformThreshold threshold) {
  return count >= threshold.value();
}

/// Entry k of a `__constant__` site table, k a constant expression (a template
/// argument, so a lane-dependent index does not compile).
template <int K, typename Table>
__device__ __forceinline__ UniformThreshold siteThreshold(const Table &table) {
  static_assert(K >= 0, "distwar: a site index is not negative");
  return UniformThreshold::trusted(static_cast<int>(table[K]));
}

} // namespace detail
} // namespace distwar

#endif // DISTWAR_THRESHOLD_CUH
