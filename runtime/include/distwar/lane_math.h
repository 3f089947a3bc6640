//===- distwar/lane_math.h - Index arithmetic of the warp reductions ------===//
//
// Pure integer helpers shared by the device reductions and by a CPU test that
// checks them exhaustively. They compile as plain C++ (no CUDA needed); the
// two that read a lane's special registers and the tree steps (PeerWalk,
// forEachTreeStep), which shuffle and vote, exist only under nvcc.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_LANE_MATH_H
#define DISTWAR_LANE_MATH_H

#include <cassert>

#if defined(__CUDACC__)
#define DISTWAR_HD __host__ __device__ __forceinline__
#else
#define DISTWAR_HD inline
#endif

namespace distwar {
namespace detail {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpSize = 32;

DISTWAR_HD int popCount(unsigned x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

#if defined(__CUDACC__)
/// This thread's lane in its warp (0..31).
__device__ __forceinline__ int laneId() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return static_cast<int>(lane);
}

/// The lanes below this one, as a mask.
__device__ __forceinline__ unsigned laneMaskLt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}
#endif

/// Lane index of the n-th (0-based) set bit of `mask`; requires
/// n < popCount(mask). Branch-free binary search: five popcounts.
DISTWAR_HD int nthSetBit(unsigned mask, int n) {
  int base = 0;
  for (int width = 16; width >= 1; width >>= 1) {
    const unsigned low = (mask >> base) & ((1u << width) - 1u);
    const int inLow = popCount(low);
    const bool upper = n >= inLow;
    n -= upper ? inLow : 0;
    base += upper ? width : 0;
  }
  return base;
}

/// The lane of the next rank after `lane`'s in its key group `peers`,
/// cyclically: the lowest set bit above `lane`, else the lowest of all.
/// Requires `lane` in `peers`. Applied to its own result d times it gives
/// the lane of rank (rank + d) mod popCount(peers), so the segmented trees
/// find each step's source by pointer jumping (the source's source, one
/// shuffle) instead of searching `peers` once per step.
DISTWAR_HD int nextPeer(unsigned peers, int lane) {
  assert(lane >= 0 && lane < 32 && (peers >> lane & 1u) && "lane not a peer");
  const unsigned above = lane == 31 ? 0u : peers & (~0u << (lane + 1));
  const unsigned from = above != 0u ? above : peers;
#if defined(__CUDA_ARCH__)
  return __ffs(from) - 1;
#else
  return __builtin_ctz(from);
#endif
}

#if defined(__CUDACC__)
/// This lane's source in a segmented tree over its key group `peers`: the
/// lane `offset` ranks on from its own, cyclically, for offset = 1, 2, 4, ...
/// Each lane of a calling mask walks its own group.
class PeerWalk {
public:
  __device__ __forceinline__ explicit PeerWalk(unsigned peers)
      : Lane(nextPeer(peers, laneId())) {}
  /// The lane at the current offset (1 at construction).
  __device__ __forceinline__ int lane() const { return Lane; }
  /// Doubles the offset: the lane as far on again from the current one.
  /// Every lane of `mask` calls it together.
  __device__ __forceinline__ void advance(unsigned mask) {
    Lane = __shfl_sync(mask, Lane, Lane);
  }

private:
  int Lane;
};

/// The steps of a shift-down tree over each key group (`peers`, from
/// match-any over `mask`, of `groupSize` lanes): `step(offset, source)` for
/// offset = 1, 2, 4, ... while some group has a rank that far on, with
/// `source` the lane of rank (rank + offset) mod groupSize of this lane's
/// group. Every lane of `mask` runs the same steps.
template <typename Step>
__device__ __forceinline__ void forEachTreeStep(unsigned mask, unsigned peers,
                                                int groupSize,
                                                const Step &step) {
  PeerWalk source(peers);
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset <<= 1) {
    if (!__any_sync(mask, offset < groupSize))
      break;
    if (offset > 1)
      source.advance(mask);
    step(offset, source.lane());
  }
}
#endif

// Reduce-scatter layout. Step j (j = 0..4) pairs lanes across bit (4 - j),
// i.e. xor offset 16 >> j. While a lane still holds K > 1 fields it halves
// them: the lane whose bit is clear keeps the first ceil(K/2) positions, the
// other keeps the rest (padded with a zero when K is odd), and each adds the
// partner's copy of the half it keeps. Once one field is left (N <= 32), the
// remaining steps are a plain xor all-reduce of that field. The real fields of
// a lane always form a prefix of what it holds, so a lane ends with field
// `scatterField(N, lane)` when `scatterValid(N, lane)`, and the lowest lane
// holding field k is `scatterHolder(N, k)`.

/// Fields a lane holds after `steps` halving steps.
DISTWAR_HD constexpr int scatterKept(int n, int steps) {
  for (int j = 0; j < steps; ++j)
    n = (n + 1) / 2;
  return n;
}

/// Number of halving steps (the rest are all-reduce steps).
DISTWAR_HD constexpr int scatterHalvings(int n) {
  int steps = 0;
  while (steps < 5 && scatterKept(n, steps) > 1)
    ++steps;
  return steps;
}

/// First original field index held by `lane` after the halvings.
DISTWAR_HD constexpr int scatterField(int n, int lane) {
  int base = 0;
  const int halvings = scatterHalvings(n);
  for (int j = 0; j < halvings; ++j)
    if (lane & (16 >> j))
      base += scatterKept(n, j + 1);
  return base;
}

/// Whether the first position `lane` holds is a real field, not padding.
DISTWAR_HD constexpr bool scatterValid(int n, int lane) {
  int real = n;
  const int halvings = scatterHalvings(n);
  for (int j = 0; j < halvings; ++j) {
    const int kept = scatterKept(n, j + 1);
    if (lane & (16 >> j))
      real = real > kept ? real - kept : 0;
    else
      real = real < kept ? real : kept;
  }
  return real > 0;
}

/// The lowest lane that ends holding field `field` (0 <= field < n <= 32).
DISTWAR_HD constexpr int scatterHolder(int n, int field) {
  int lane = 0;
  int base = 0;
  const int halvings = scatterHalvings(n);
  for (int j = 0; j < halvings; ++j) {
    const int kept = scatterKept(n, j + 1);
    if (field - base >= kept) {
      base += kept;
      lane |= 16 >> j;
    }
  }
  return lane;
}

/// scatterHolder(N, k) for every field k, as a constant table (the gather
/// after a reduce-scatter shuffles from these lanes).
template <int N> struct ScatterHolders { int lane[N]; };
template <int N> DISTWAR_HD constexpr ScatterHolders<N> scatterHolders() {
  ScatterHolders<N> h{};
  for (int k = 0; k < N; ++k)
    h.lane[k] = scatterHolder(N, k);
  return h;
}

} // namespace detail
} // namespace distwar

#endif // DISTWAR_LANE_MATH_H
