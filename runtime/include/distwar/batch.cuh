//===- distwar/batch.cuh - The fields of one batched gradient group ------===//
//
// A Fields (values only) or Batch (values and addresses) holds, per lane,
// every atomicAdd of one group (one primitive key). The rewriter replaces each
// atomicAdd with set() at a slot that is a compile-time constant after
// unrolling, so the arrays live in registers (checked by the register-report
// test).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_BATCH_CUH
#define DISTWAR_BATCH_CUH

#include <type_traits>

namespace distwar {

/// Slots [Begin, End) of a batch are set by every lane that sets the group's
/// key: the rewriter proves it (no condition, loop or jump between the site
/// and the group's scope, see docs/GENERATED_CODE.md) and lists such ranges as
/// the batch's extra template arguments. Their presence is not tracked at run
/// time and their addresses are never null, so the reductions issue them with
/// no per-field test; every other slot is tracked (a presence bit, and a null
/// test of its address). Without ranges every slot is tracked.
template <int Begin, int End> struct AlwaysSet {
  static_assert(0 <= Begin && Begin <= End, "AlwaysSet<Begin, End>: a range");
  static constexpr int kBegin = Begin;
  static constexpr int kEnd = End;
};

/// Slots [Begin, End) of a batch may be set by some lanes of one key and not
/// by others: their sites lie under an `if` whose condition differs across
/// lanes (two branches of a per-pixel test, each adding to other fields of
/// the same primitive). Tracked like any other slot; before the sums, the
/// reductions give every lane of a key the union of their presence bits and
/// zero where the lane did not set the slot, so the issuing lane adds the
/// key's sum whether or not it set the slot itself.
template <int Begin, int End> struct LaneSet {
  static_assert(0 <= Begin && Begin <= End, "LaneSet<Begin, End>: a range");
  static constexpr int kBegin = Begin;
  static constexpr int kEnd = End;
};

/// Marks a batch whose field k is the element right after field k - 1 in
/// every lane that sets them (a texel's channels, `grad + texel + c`). The
/// reductions then issue the sums of a warp's issuing lanes lane after lane
/// rather than field after field: one atomic instruction adds 32
/// consecutive elements instead of one element of each of 32 lanes, which
/// the L2 takes in far fewer requests (reduce.cuh, issueCoalesced). A lane
/// whose addresses turn out not to follow each other at run time issues its
/// own atomics as before, so the mark is an opportunity, never a promise
/// the reductions rely on. It holds no slots.
struct Consecutive {
  static constexpr int kBegin = 0;
  static constexpr int kEnd = 0;
};

/// Marks slots [Begin, End) of a batch as adjacent floats in memory: field
/// k + 1 is the float right after field k in every lane that sets them (the
/// members of a struct element, `&g[i].cam_pos.x` to `&g[i].axis_z.z`), and
/// field Begin lies Phase floats past a 16-byte boundary when the buffer is
/// 16-byte aligned (the element's size is a multiple of 16). The reductions
/// add each 16-byte block of such fields with one of sm_90's float4 atomics
/// (reduce.cuh, issueAdjacent). Like Consecutive, the mark is an
/// opportunity: each vector is checked at run time (its fields set, their
/// addresses adjacent, aligned and in global memory), and fields that fail
/// the check are added one by one. It holds no slots.
template <int Begin, int End, int Phase = 0> struct Adjacent {
  static_assert(0 <= Begin && Begin < End, "Adjacent<Begin, End>: a range");
  static_assert(0 <= Phase && Phase < 4,
                "Adjacent<Begin, End, Phase>: Phase floats past 16 bytes");
  static constexpr int kBegin = 0;
  static constexpr int kEnd = 0;
};

namespace detail {
template <typename R> struct IsAdjacentRun : std::false_type {
  static constexpr int kRunBegin = -1;
  static constexpr int kRunEnd = 0;
  static constexpr int kRunPhase = 0;
};
template <int B, int E, int P>
struct IsAdjacentRun<Adjacent<B, E, P>> : std::true_type {
  static constexpr int kRunBegin = B;
  static constexpr int kRunEnd = E;
  static constexpr int kRunPhase = P;
};
template <typename R> struct IsAlwaysSetRange : std::false_type {};
template <int B, int E>
struct IsAlwaysSetRange<AlwaysSet<B, E>> : std::true_type {};
template <typename R> struct IsLaneSetRange : std::false_type {};
template <int B, int E>
struct IsLaneSetRange<LaneSet<B, E>> : std::true_type {};

/// Whether \p slot lies in one of the ranges of kind K among Ranges.
template <template <typename> class K, typename... Ranges>
constexpr __host__ __device__ bool inRanges(int slot) {
  return ((K<Ranges>::value && slot >= Ranges::kBegin &&
           slot < Ranges::kEnd) ||
          ... || false);
}
} // namespace detail

/// The most fields a batch keeps in registers until its reduction. A group
/// with more (a channel loop of 128 feature channels) keeps only its first
/// kKeptOfLongBatch slots and issues each other one as a plain atomic where
/// it is set, at the atomic's own place: registers stay bounded (no spills;
/// a 128-channel feature backward: 46 registers against 32 plain, 255 and a
/// stack frame when every slot was kept), and every slot still adds exactly
/// what its atomic adds. The rewriter unrolls a channel loop only up to the
/// same length.
constexpr int kMaxBatchFields = 32;
constexpr int kKeptOfLongBatch = 8;

/// How far the rewriter's `#pragma unroll` unrolls a channel loop of Trip
/// iterations: wholly up to kMaxBatchFields (slots become constants), not at
/// all beyond (a 128-iteration body unrolled costs every register).
template <int Trip>
constexpr int kChannelUnroll = Trip <= kMaxBatchFields ? Trip : 1;

/// The values of one group: slot i holds a field where it is always set (an
/// AlwaysSet range) or where bit i of `present` is set (set() was called this
/// iteration); a tracked slot that was not set (a condition that is uniform
/// across the lanes of one key) is skipped.
///
/// This is the deferred-address form: set() keeps the value and the presence
/// bit; the address argument is evaluated where the atomic was but not
/// stored, so its arithmetic is removed. The reductions take an `addrOf`
/// callable, `T *addrOf(int k)`, that rebuilds field k's address from the key
/// (nullptr when a tracked slot is absent); only the issuing lane(s) call it,
/// after the reduction, with k a compile-time constant after unrolling. This
/// keeps N addresses (2N registers) out of the live state between the sites
/// and the reduction.
///
/// Values of unset slots are left uninitialised on purpose (the reductions
/// read them only where `present` says they were set, or in sums that are then
/// discarded): initialising them at the declaration (at the loop head in
/// butterfly output) keeps the registers live through the whole loop body,
/// since the compiler must carry the initial values across the guards to the
/// reduction: initialised, the 3DGS backward auto output (N = 10, sm_90)
/// takes 97 registers instead of 80 with strategy::Leader and 91 instead of
/// 64 with strategy::ScatterLaneK (2 blocks of 256 threads per SM instead of
/// 3 and 4). The presence words, in contrast, are always initialised: they
/// say which values may be read.
template <typename T, int N, typename... Always> struct Fields {
  // N == 0 is a batch of a channel loop instantiated with no channels: the
  // reductions do nothing for it (the loop added nothing either).
  static_assert(N >= 0, "a batch holds no negative number of fields");
  static_assert(std::is_same<T, float>::value ||
                    std::is_same<T, double>::value ||
                    std::is_same<T, int>::value ||
                    std::is_same<T, unsigned>::value ||
                    std::is_same<T, unsigned long long>::value,
                "batch element types: float, double, int, unsigned, "
                "unsigned long long (the types atomicAdd accepts)");
  static_assert(((detail::IsAlwaysSetRange<Always>::value ||
                  detail::IsLaneSetRange<Always>::value ||
                  detail::IsAdjacentRun<Always>::value ||
                  std::is_same<Always, Consecutive>::value) &&
                 ...),
                "the extra arguments of a batch are AlwaysSet<Begin, End>, "
                "LaneSet<Begin, End>, Adjacent<Begin, End> and Consecutive");
  static_assert(((Always::kEnd <= N) && ...),
                "an AlwaysSet range ends past the batch's last slot");

  /// The slots kept for the reduction: [0, kSize).
  static constexpr int kSize = N <= kMaxBatchFields ? N : kKeptOfLongBatch;
  T val[kSize > 0 ? kSize : 1];
  using Type = T;
  /// Whether the batch is marked Consecutive.
  static constexpr bool kConsecutive =
      (std::is_same<Always, Consecutive>::value || ... || false);
  static constexpr int kWords = (kSize + 31) / 32;
  /// Presence bits; one word even when no slot is kept (N == 0), so that the
  /// array is never empty, and that word reads as "nothing set".
  unsigned present[kWords > 0 ? kWords : 1];

  /// The end of the Adjacent run that begins at \p slot (at most kSize), or
  /// 0 where none does.
  static constexpr __host__ __device__ int adjacentEnd(int slot) {
    int end = 0;
    ((end = detail::IsAdjacentRun<Always>::kRunBegin == slot
                ? detail::IsAdjacentRun<Always>::kRunEnd
                : end),
     ...);
    return end < kSize ? end : kSize;
  }
  /// The phase of the Adjacent run that begins at \p slot (0 where none does).
  static constexpr __host__ __device__ int adjacentPhase(int slot) {
    int phase = 0;
    ((phase = detail::IsAdjacentRun<Always>::kRunBegin == slot
                  ? detail::IsAdjacentRun<Always>::kRunPhase
                  : phase),
     ...);
    return phase;
  }

  /// Whether slot i is set whenever the key is (no run-time presence).
  static constexpr __host__ __device__ bool alwaysSet(int slot) {
    return detail::inRanges<detail::IsAlwaysSetRange, Always...>(slot);
  }
  /// The slots among 0..31 whose presence may differ between the lanes of
  /// one key (LaneSet ranges), as bits of present[0].
  static constexpr __host__ __device__ unsigned laneSetInFirstWord() {
    unsigned mask = 0;
    for (int i = 0; i < kSize && i < 32; ++i)
      if (detail::inRanges<detail::IsLaneSetRange, Always...>(i) &&
          !alwaysSet(i))
        mask |= 1u << i;
    return mask;
  }
  /// The tracked slots among 0..31, as bits of present[0].
  static constexpr __host__ __device__ unsigned trackedInFirstWord() {
    unsigned mask = 0;
    for (int i = 0; i < kSize && i < 32; ++i)
      if (!alwaysSet(i))
        mask |= 1u << i;
    return mask;
  }

  __device__ __forceinline__ Fields() {
#pragma unroll
    for (int w = 0; w < (kWords > 0 ? kWords : 1); ++w)
      present[w] = 0u;
  }

  /// Keeps slot `slot`'s value (its address is rebuilt by the reduction's
  /// addrOf), or adds it at `a` now when the batch does not keep the slot.
  /// `slot` is a compile-time constant after unrolling, except in a channel
  /// loop too long to unroll: then a chain of selects keeps the values in
  /// registers (an indexed store would move them to local memory).
  __device__ __forceinline__ void set(int slot, T *a, T v) {
    if (slot >= kSize) {
      atomicAdd(a, v);
      return;
    }
#pragma unroll
    for (int i = 0; i < kSize; ++i)
      if (i == slot)
        val[i] = v;
    if (!alwaysSet(slot))
      present[slot / 32] |= 1u << (slot % 32);
  }

  /// Whether slot i was set (in a lane that set the key).
  __device__ __forceinline__ bool has(int slot) const {
    return alwaysSet(slot) || ((present[slot / 32] >> (slot % 32)) & 1u);
  }
  /// The slot's value, zero where it was not set.
  __device__ __forceinline__ T value(int slot) const {
    return has(slot) ? val[slot] : T(0);
  }
};

/// Fields plus the address of every set slot, captured at the site: for
/// groups whose addresses the rewriter cannot rebuild from the key at the
/// call (macro sites, addresses that read other locals). Addresses of unset
/// slots are left uninitialised, as the values are.
template <typename T, int N, typename... Always>
struct Batch : Fields<T, N, Always...> {
  T *addr[Fields<T, N, Always...>::kSize > 0 ? Fields<T, N, Always...>::kSize
                                              : 1];

  __device__ __forceinline__ void set(int slot, T *a, T v) {
#pragma unroll
    for (int i = 0; i < Fields<T, N, Always...>::kSize; ++i)
      if (i == slot)
        addr[i] = a;
    Fields<T, N, Always...>::set(slot, a, v);
  }

  /// The slot's address, nullptr where it was not set.
  __device__ __forceinline__ T *address(int slot) const {
    return this->has(slot) ? addr[slot] : nullptr;
  }
};

} // namespace distwar

#endif // DISTWAR_BATCH_CUH
