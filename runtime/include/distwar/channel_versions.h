//===- distwar/channel_versions.h - Loops versioned by trip count --------===//
//
// A loop over a texel's channels whose count is known only at run time
// (`for (int i = 0; i < p.channels; i++)`) is rewritten into a generic
// lambda that runs it with the count a constant, so that each channel is a
// field of the batch, called for counts 1 to kVersionedChannels; the loop as
// written runs for the others (docs/GENERATED_CODE.md, section 11).
//
// The versions add after the loop what the loop as written added at each
// iteration. A lane's own later reads would miss those adds if they read
// the same memory, so a lane runs a version only when the byte ranges of
// its reads and of its adds are apart (channelRangesApart); where the
// rewriter cannot prove the buffers distinct it passes that test. Plain C++
// as well (no CUDA needed), for a CPU test.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_CHANNEL_VERSIONS_H
#define DISTWAR_CHANNEL_VERSIONS_H

#include "distwar/lane_math.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace distwar {

/// The trip counts that get a version of their own.
constexpr int kVersionedChannels = 4;

/// The trip count of a version, as the type its lambda is called with.
template <int N> using Channels = std::integral_constant<int, N>;

/// The bytes [lo, hi) that a loop touches through one pointer.
struct ByteRange {
  std::uintptr_t lo = 0, hi = 0;
};

namespace detail {
template <typename T>
DISTWAR_HD ByteRange elementsFrom(const T *first, int count) {
  const auto lo = reinterpret_cast<std::uintptr_t>(first);
  const int n = count > 0 ? count : 0;
  return {lo, lo + static_cast<std::uintptr_t>(n) * sizeof(T)};
}

DISTWAR_HD bool apart(ByteRange a, ByteRange b) {
  return a.hi <= b.lo || b.hi <= a.lo;
}

DISTWAR_HD ByteRange join(ByteRange a, ByteRange b) {
  return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

/// Calls \p version with Channels<count> when count is one of N + 1.
template <typename F, int... N>
DISTWAR_HD bool runVersion(const F &version, int count,
                           std::integer_sequence<int, N...>) {
  return ((count == N + 1 && (version(Channels<N + 1>{}), true)) || ...);
}
} // namespace detail

/// The smallest range holding `count` elements from each of \p first.
template <typename T, typename... R>
DISTWAR_HD ByteRange channelHull(int count, const T *first, const R *...rest) {
  ByteRange hull = detail::elementsFrom(first, count);
  ((hull = detail::join(hull, detail::elementsFrom(rest, count))), ...);
  return hull;
}

/// Whether `count` elements from each of \p reads miss \p adds.
template <typename... R>
DISTWAR_HD bool channelRangesApart(int count, ByteRange adds,
                                   const R *...reads) {
  return (detail::apart(adds, detail::elementsFrom(reads, count)) && ...);
}

/// Runs \p version with Channels<count> when count is 1 to
/// kVersionedChannels and \p apart; otherwise returns false, and the
/// caller runs the loop as written.
template <typename F>
DISTWAR_HD bool runChannelVersion(const F &version, int count,
                                  bool apart = true) {
  return apart && detail::runVersion(
                      version, count,
                      std::make_integer_sequence<int, kVersionedChannels>{});
}

} // namespace distwar

#endif // DISTWAR_CHANNEL_VERSIONS_H
