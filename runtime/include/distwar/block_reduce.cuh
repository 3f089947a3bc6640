//===- distwar/block_reduce.cuh - The block strategy of generated code ----===//
//
// For groups whose key differs per lane (a pixel's k-th sphere, a bilinear
// corner's texel), a warp finds few lanes with one key in one iteration,
// while the lanes of a block hit a small set of primitives over the whole
// loop. At a site whose threshold is kBlockStrategy, reduceBlock sums the
// warp's lanes per key in registers and adds the sums to the block's entry
// for the key in shared memory (BlockSlots); blockEnd issues one global
// atomic per (key, field) when the block is done. At every other threshold
// the site is the serial reduction it would be without the table, so the
// tuner can choose per site, at run time, between the two (and plain
// atomics).
//
// Protocol (the rewriter places every call; each says which threads call it):
//   __shared__ distwar::BlockSlots<float, 10> slots;
//   distwar::blockBegin(slots);              // first in the kernel
//   ... distwar::reduceBlock(slots, batch, key, threshold, addrOf) ...
//   distwar::blockEnd(slots, addrOf);        // last in the kernel
// blockBegin and blockEnd contain __syncthreads(), so every thread of the
// block reaches them, once, in uniform control flow. Between them no barrier
// is needed: entries are claimed with atomicCAS and added to with atomicAdd.
//
// addrOf(key, k) returns field k's global address for a key, or nullptr
// where the field is absent. reduceBlock calls it with the caller's key (its
// serial and overflow paths) and blockEnd with the table's int, so its key
// parameter must take both (`auto`, or the key's type).
//
// A key outside [0, INT_MAX], or one that finds no entry within
// detail::maxProbes probes (the table is full), is not lost: its warp sum is
// issued as global atomics (the overflow path), so the table's size only
// changes the speed. Each (key, field) is summed in T in shared memory and
// added once to global memory: the results differ from plain atomics by the
// order of the additions only (integers not at all).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_BLOCK_REDUCE_CUH
#define DISTWAR_BLOCK_REDUCE_CUH

#include "distwar/batch.cuh"
#include "distwar/block_table.cuh"
#include "distwar/reduce.cuh"
#include "distwar/threshold.cuh"
#include "distwar/threshold_values.h"

#include <climits>
#include <type_traits>

namespace distwar {

/// The shared memory one BlockSlots may take. The kernel keeps its own
/// shared arrays too, a block's static shared memory is at most 48 KB, and
/// the blocks of an SM share one pool (228 KB on sm_90): 16 KB per table
/// leaves room for the kernel's arrays and for several blocks per SM (the
/// rewriter gives a kernel at most two tables).
constexpr int kBlockSlotsBudget = 16 * 1024;

/// The most entries of a BlockSlots (a block of 1024 threads with one key
/// each fills 1024).
constexpr int kMaxBlockSlots = 1024;

namespace detail {
/// The largest power of two up to `n` (1 when n < 1).
__host__ __device__ constexpr int powerOfTwoBelow(int n) {
  int p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}
} // namespace detail

/// Entries of a BlockSlots<T, N>: the largest power of two whose entries fit
/// kBlockSlotsBudget, at most kMaxBlockSlots and at least 1. An entry holds
/// the fields a Fields<T, N> keeps for its reduction (all N up to
/// kMaxBatchFields, kKeptOfLongBatch beyond); one that keeps none needs no
/// table (1 entry).
template <typename T, int N>
__host__ __device__ constexpr int blockSlotsCapacity() {
  constexpr int kKept = Fields<T, N>::kSize;
  if (kKept == 0)
    return 1;
  constexpr int kEntry = static_cast<int>(sizeof(int) + kKept * sizeof(T));
  constexpr int kFit = kBlockSlotsBudget / kEntry;
  return detail::powerOfTwoBelow(kFit < kMaxBlockSlots ? kFit : kMaxBlockSlots);
}

/// A block's accumulators in shared memory: Cap entries keyed by a primitive
/// index (int, kEmptyKey = free), kFields values of T each. Field-major, so
/// that lanes with different keys that add to one field hit different banks.
/// An aggregate with no initialisers, so that it can be `__shared__`.
template <typename T, int N, int Cap = blockSlotsCapacity<T, N>()>
struct BlockSlots {
  static_assert(Cap > 0 && (Cap & (Cap - 1)) == 0,
                "BlockSlots: the capacity is a power of two");
  static constexpr int kCapacity = Cap;
  /// The fields of an entry: those a Fields<T, N> keeps (the others are
  /// added at their sites, see Fields::set).
  static constexpr int kFields = Fields<T, N>::kSize;

  int keys[Cap];
  T values[kFields > 0 ? kFields : 1][Cap];
};

/// Clears the entries, then __syncthreads(). Every thread of the block calls
/// it, once, before any reduceBlock on `s`.
template <typename T, int N, int Cap>
__device__ __forceinline__ void blockBegin(BlockSlots<T, N, Cap> &s) {
  constexpr int kFields = BlockSlots<T, N, Cap>::kFields;
  const int n = detail::threadsInBlock();
  for (int i = detail::threadRankInBlock(); i < Cap; i += n) {
    s.keys[i] = kEmptyKey;
#pragma unroll
    for (int f = 0; f < kFields; ++f)
      s.values[f][i] = T(0);
  }
  __syncthreads();
}

/// __syncthreads(), then one atomicAdd per (entry, field) whose sum is
/// nonzero, at addrOf(key, field) (field a run-time int in [0, kFields);
/// nullptr skips it). Every thread of the block calls it, once, after its
/// last reduceBlock on `s`. Consecutive threads take consecutive fields of
/// one entry, so the atomics of one primitive leave together.
template <typename T, int N, int Cap, typename AddrOf>
__device__ __forceinline__ void blockEnd(BlockSlots<T, N, Cap> &s,
                                         const AddrOf &addrOf) {
  constexpr int kFields = BlockSlots<T, N, Cap>::kFields;
  __syncthreads();
  if constexpr (kFields > 0) {
    const int n = detail::threadsInBlock();
    for (int i = detail::threadRankInBlock(); i < Cap * kFields; i += n) {
      const int slot = i / kFields;
      const int field = i - slot * kFields;
      const int key = s.keys[slot];
      if (key == kEmptyKey)
        continue;
      const T sum = s.values[field][slot];
      if (sum == T(0))
        continue;
      T *a = addrOf(key, field);
      if (a != nullptr)
        atomicAdd(a, sum);
    }
  } else {
    (void)s, (void)addrOf;
  }
}

/// As blockBegin(s) when `mode` (the site's value, read once at the kernel's
/// start and passed to every reduceBlock and blockEnd of `s`) selects the
/// block strategy; otherwise nothing, not even the barrier. A
/// UniformThreshold read from the site table is the same in every thread of
/// the grid, so the whole block takes the same branch: a launch the tuner
/// runs with warp reductions or plain atomics pays for no table.
template <typename T, int N, int Cap>
__device__ __forceinline__ void blockBegin(BlockSlots<T, N, Cap> &s,
                                           UniformThreshold mode) {
  if (mode.value() >= kBlockStrategy)
    blockBegin(s);
}

/// As blockEnd(s, addrOf) when `mode` (the value blockBegin got) selects the
/// block strategy; otherwise nothing.
template <typename T, int N, int Cap, typename AddrOf>
__device__ __forceinline__ void blockEnd(BlockSlots<T, N, Cap> &s,
                                         UniformThreshold mode,
                                         const AddrOf &addrOf) {
  if (mode.value() >= kBlockStrategy)
    blockEnd(s, addrOf);
}

namespace detail {

/// The integer a block key is compared as: an enum's underlying type.
template <typename Key, bool = std::is_enum<Key>::value> struct BlockKeyType {
  using type = Key;
};
template <typename Key> struct BlockKeyType<Key, true> {
  using type = std::underlying_type_t<Key>;
};

/// A block key is an integer (a primitive's index) of at most 64 bits: the
/// table holds ints, and addrOf rebuilds addresses from them.
template <typename Key> __host__ __device__ constexpr void checkBlockKey() {
  static_assert(std::is_integral<Key>::value || std::is_enum<Key>::value,
                "distwar: the key of a block reduction is an integer (a "
                "primitive's index)");
  static_assert(sizeof(Key) <= 8, "distwar: keys are at most 64 bits");
}

/// The table's int for `key`, or kEmptyKey when it lies outside [0, INT_MAX]
/// (the overflow path takes it). Any integral type up to 64 bits, signed or
/// unsigned.
template <typename Key> __device__ __forceinline__ int tableKey(Key key) {
  checkBlockKey<Key>();
  using K = typename BlockKeyType<Key>::type;
  const K k = static_cast<K>(key);
  if constexpr (std::is_signed<K>::value)
    if (k < 0)
      return kEmptyKey;
  return static_cast<unsigned long long>(k) <= INT_MAX ? static_cast<int>(k)
                                                       : kEmptyKey;
}

/// Whether the calling lanes (`mask`) take the block strategy: the same in
/// every lane. An int threshold may differ between lanes and is voted on; a
/// UniformThreshold is the same everywhere by construction.
__device__ __forceinline__ bool blockSelected(unsigned mask, int threshold) {
  return __all_sync(mask, threshold >= kBlockStrategy);
}
__device__ __forceinline__ bool blockSelected(unsigned,
                                              UniformThreshold threshold) {
  return threshold.value() >= kBlockStrategy;
}

/// The key group's leader adds its sums `v` to the key's entry (the fields
/// `b` has; zeros change nothing and are skipped), or issues them at
/// `fieldAddr` when the key has no entry (the overflow path).
template <typename B, typename Slots, typename Key, typename FieldAddr,
          typename T, int N>
__device__ __forceinline__ void addToEntry(Slots &s, const B &b, Key key,
                                           const FieldAddr &fieldAddr,
                                           const T (&v)[N]) {
  const int k = tableKey(key);
  const int slot = k == kEmptyKey ? kNoSlot : claimEntry(s.keys, k);
  if (slot == kNoSlot) {
    plainAtomics(b, fieldAddr, v);
    return;
  }
#pragma unroll
  for (int i = 0; i < N; ++i)
    if (b.has(i) && v[i] != T(0))
      atomicAdd(&s.values[i][slot], v[i]);
}

/// The block strategy for the lanes of `mask` (all calling together): the
/// lanes of one key sum their fields into the lowest of them, which adds the
/// sums to the table. LaneSet slots are first made common to the key's lanes
/// (sharedPresence), so the leader adds a slot that any of them set.
template <typename B, typename Slots, typename Key, typename FieldAddr>
__device__ __forceinline__ void blockPath(Slots &s, const B &b, Key key,
                                          unsigned mask,
                                          const FieldAddr &fieldAddr) {
  const unsigned peers = __match_any_sync(mask, matchKey(key));
  const B shared = sharedPresence(b, peers, true);
  typename B::Type v[B::kSize];
  unpackValues(shared, true, v);
  sumToLeader(mask, peers, v);
  if ((peers & laneMaskLt()) == 0)
    addToEntry(s, shared, key, fieldAddr, v);
}

} // namespace detail

/// Called where reduceSerial would be (any subset of the warp's lanes,
/// possibly divergent), with a values-only batch and addrOf(key, k) -> T*
/// (nullptr for an absent tracked field).
///  - threshold < kBlockStrategy (in some calling lane): exactly
///    reduceSerial<S>(f, key, threshold, addrOf at `key`).
///  - threshold >= kBlockStrategy: the calling lanes are grouped by key
///    (match-any); each group's sums are added to the key's entry of `s` by
///    its lowest lane, or issued as global atomics when the key has none.
/// The batch's presence rules are those of every reduction (batch.cuh): a
/// tracked slot is added where it was set and issued where addrOf gives an
/// address.
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          int Cap, typename Key, typename Threshold, typename AddrOf>
__device__ __forceinline__ void
reduceBlock(BlockSlots<T, N, Cap> &s, const Fields<T, N, R...> &f, Key key,
            Threshold threshold, const AddrOf &addrOf) {
  detail::checkStrategy<S>();
  detail::checkBlockKey<Key>();
  const auto fieldAddr = [&](int k) { return addrOf(key, k); };
  if constexpr (Fields<T, N, R...>::kSize == 0) {
    // No field (a channel loop instantiated with no channels): no lane adds
    // anything.
    (void)s, (void)f, (void)threshold, (void)fieldAddr;
  } else {
    const unsigned mask = __activemask();
    if (!detail::blockSelected(mask, threshold)) {
      reduceSerial<S>(f, key, threshold, fieldAddr);
      return;
    }
    detail::blockPath(s, f, key, mask, fieldAddr);
  }
}

} // namespace distwar

#endif // DISTWAR_BLOCK_REDUCE_CUH
