//===- distwar/reduce.cuh - Warp-level batched gradient reductions -------===//
//
// The functions rewritten code calls instead of per-lane atomicAdds (see
// docs/GENERATED_CODE.md, section 3). sm_70 or newer.
//
// Threshold (the `threshold` argument, normally DISTWAR_SITE_THRESHOLD):
//   0..32  reduce when at least `threshold` lanes take part (serial: lanes that
//          call; butterfly: active lanes); below it every lane issues its own
//          atomics. 0 and 1 behave the same (a call always has a lane).
//   33     kNeverReduce: always plain atomics.
//   34     kBlockStrategy: plain atomics here; the block strategy of the
//          sites that accumulate in shared memory (distwar/block_reduce.cuh).
//   kSerialForm | 0..32: the same thresholds; runForms runs the serial
//          version of a two-form loop at them, every reduction ignores the
//          bit.
// (distwar/threshold_values.h lists the values for host and device code.)
// The threshold is an int or a distwar::UniformThreshold (what
// DISTWAR_SITE_THRESHOLD returns). An int may differ between lanes, so the
// reductions vote on it: a lane-dependent value cannot split the warp between
// shuffles and plain atomics. A UniformThreshold is the same in every lane by
// construction and is compared without a vote (distwar/threshold.cuh).
//
// Every reduction adds exactly what plain atomics would add (integers exactly,
// floats up to reordering). Which lanes take part is decided at run time:
//  - the lanes shuffled with are only those that execute the call together
//    (__activemask() at the call); every such lane runs the same sequence of
//    warp intrinsics with the same mask, so none waits for a lane that is not
//    there, and lanes that arrive later reduce among themselves;
//  - the butterfly reduces only when all 32 lanes are present; otherwise it
//    falls back to plain atomics from the active lanes (edge tiles, lanes that
//    returned early), so it never hangs and never drops a gradient.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_REDUCE_CUH
#define DISTWAR_REDUCE_CUH

#include "distwar/batch.cuh"
#include "distwar/lane_math.h"
#include "distwar/threshold.cuh"
#include "distwar/threshold_values.h"
#include "distwar/vector_plan.h"

#include <type_traits>
#include <utility>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "distwar reductions need sm_70 or newer (__match_any_sync)"
#endif

// The strategy is a type named at the call (distwar::strategy); a macro that
// changed it per translation unit would give one template different meanings
// in units linked together.
#ifdef DISTWAR_STRATEGY
#error "distwar: DISTWAR_STRATEGY is not read. Name the strategy as the \
reduction's first template argument (distwar::strategy::Leader, ...); to build \
generated code with another one, see kernels/auto_strategy.cuh"
#endif

namespace distwar {

/// How a reduced warp (or key group) combines and issues its sums: one type
/// per strategy, passed as the first template argument of a reduction
/// (`reduceSerial<distwar::strategy::Leader>(...)`); calls that name none,
/// which is all generated code, use DefaultStrategy. A strategy is two
/// choices, each a trait the reductions switch on at compile time:
///  - kReduceScatter: a full warp of at most 32 fields combines by
///    recursive-halving reduce-scatter (about N + 5 shuffles instead of 5N)
///    rather than by one shuffle tree per field. Partial key groups and
///    batches of more than 32 fields always use the trees.
///  - kLeaderIssues: one lane (the first active one, or the key group's
///    leader) issues every atomic, rather than the active lane of rank k
///    issuing field k (mod the lane count), which spreads the atomics over
///    up to 32 lanes and one instruction.
namespace strategy {

/// Shuffle tree over all fields (5 shuffles per field for a full warp); the
/// leader issues every atomic.
struct Leader {
  static constexpr bool kReduceScatter = false;
  static constexpr bool kLeaderIssues = true;
  static constexpr const char *kName = "leader";
};

/// The tree of Leader; the active lane of rank k issues field k (mod the
/// lane count), so a warp issues up to 32 fields with one atomic instruction.
struct TreeLaneK {
  static constexpr bool kReduceScatter = false;
  static constexpr bool kLeaderIssues = false;
  static constexpr const char *kName = "tree-lane-k";
};

/// Full warps: reduce-scatter, then each field is issued by the lane that
/// holds its sum (or, when some lanes are inactive, fetched and issued by the
/// active lane of rank k). Partial key groups of the serial reduction use the
/// rotated tree of TreeLaneK.
struct ScatterLaneK {
  static constexpr bool kReduceScatter = true;
  static constexpr bool kLeaderIssues = false;
  static constexpr const char *kName = "scatter-lane-k";
};

/// Full warps of at most 32 fields: the reduce-scatter of ScatterLaneK, then
/// one shuffle per field gathers the sums in the leader, which issues every
/// atomic (N + 5 + N shuffles and about half the instructions of Leader's
/// tree for N = 10; the 3DGS backward closes 2-5 more points of the gap to
/// the no-atomic floor, bench/RESULTS.md). Otherwise as Leader.
struct ScatterLeader {
  static constexpr bool kReduceScatter = true;
  static constexpr bool kLeaderIssues = true;
  static constexpr const char *kName = "scatter-leader";
};

} // namespace strategy

/// The strategy of every reduction called without one. One type for the
/// whole program: a build that compiles the same generated code with another
/// strategy names it at the calls (kernels/auto_strategy.cuh), so no
/// two translation units give one entity different meanings.
using DefaultStrategy = strategy::ScatterLeader;

/// The key groups a serial reduction matched, kept for a later one with the
/// same key (see reduceSerial with keepPeers / reusePeers). Declared where
/// the first of those reductions begins, so that each pass through that
/// block starts with nothing kept.
struct KeptPeers {
  /// The lanes that called the keeping reduction together; 0: none kept.
  unsigned mask = 0;
  /// This lane's key group among them.
  unsigned peers = 0;
};

namespace detail {
/// How a reduction uses a KeptPeers: Reuse tries its groups first.
template <bool Reuse> struct PeersUse { KeptPeers &kept; };
} // namespace detail

/// The reduction keeps its key groups in \p kept.
__device__ __forceinline__ detail::PeersUse<false> keepPeers(KeptPeers &kept) {
  return {kept};
}

/// The reduction reuses the groups in \p kept when the same lanes call it.
__device__ __forceinline__ detail::PeersUse<true> reusePeers(KeptPeers &kept) {
  return {kept};
}

namespace detail {
template <typename S> struct IsStrategy : std::false_type {};
template <> struct IsStrategy<strategy::Leader> : std::true_type {};
template <> struct IsStrategy<strategy::TreeLaneK> : std::true_type {};
template <> struct IsStrategy<strategy::ScatterLaneK> : std::true_type {};
template <> struct IsStrategy<strategy::ScatterLeader> : std::true_type {};

template <typename S> __host__ __device__ constexpr void checkStrategy() {
  static_assert(IsStrategy<S>::value,
                "distwar: the first template argument of a reduction is a "
                "strategy: distwar::strategy::Leader, TreeLaneK, ScatterLaneK "
                "or ScatterLeader");
}

/// The type a key is compared as (match instructions take 32 or 64 bits).
template <typename Key>
using MatchType = typename std::conditional<sizeof(Key) <= 4, unsigned,
                                            unsigned long long>::type;

/// A key is an integer (a primitive's index) or a pointer (a per-lane base
/// pointer whose fields are constant offsets from it: lanes with equal
/// pointers update the same fields).
template <typename Key>
__device__ __forceinline__ MatchType<Key> matchKey(Key key) {
  static_assert(std::is_integral<Key>::value || std::is_enum<Key>::value ||
                    std::is_pointer<Key>::value,
                "distwar: a primitive key must be an integer or a pointer");
  static_assert(sizeof(Key) <= 8, "distwar: keys are at most 64 bits");
  if constexpr (std::is_pointer<Key>::value)
    return reinterpret_cast<unsigned long long>(key);
  else
    return static_cast<MatchType<Key>>(key);
}

/// The batch's raw values (zero where `use` is false). Slots that were not
/// set hold garbage: their sums are never issued, because every issuing lane
/// checks its own `has` (a slot is set in all lanes of one key or in none;
/// LaneSet slots are made so by sharedPresence first), so the garbage stays
/// in a discarded sum. Reading the raw arrays here
/// rather than address()/value() keeps the batch's live ranges short (see
/// Batch; in the 3DGS backward, address()/value() here: 80 registers with
/// ScatterLaneK and 80/118 with Leader/TreeLaneK; raw: 64 and 80/80).
/// Batch-like types B (Batch, Fields) provide val[], has(i) and kWords.
template <typename B, typename T, int N>
__device__ __forceinline__ void unpackValues(const B &b, bool use,
                                             T (&val)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    val[i] = use ? b.val[i] : T(0);
}

/// The address source of a Batch: its raw addresses (see unpackValues).
/// Fields use the caller's addrOf instead. Address sources are called with
/// compile-time indices only (after unrolling), so no array is indexed
/// dynamically.
template <typename B> struct BatchAddress {
  const B &b;
  __device__ __forceinline__ typename B::Type *operator()(int i) const {
    return b.addr[i];
  }
};

/// The address source of reductions over \p b: the caller's addrOf, or the
/// raw addresses of \p b itself when the caller's reads another Batch (a
/// copy with shared presence, see sharedPresence).
template <typename B, typename A>
__device__ __forceinline__ A addressesOf(const A &addr, const B &) {
  return addr;
}
template <typename B>
__device__ __forceinline__ BatchAddress<B> addressesOf(const BatchAddress<B> &,
                                                       const B &b) {
  return BatchAddress<B>{b};
}

template <typename B, typename = void> struct HasAddresses : std::false_type {};
template <typename B>
struct HasAddresses<B, std::void_t<decltype(std::declval<B>().addr)>>
    : std::true_type {};

/// \p b with its LaneSet slots made the same in every lane of `group` (the
/// lanes of one key, all calling together): presence is the union over the
/// lanes that `use` their batch, the value is zero where this lane did not
/// set the slot, and a Batch's address is taken from a lane that did. The
/// reductions then treat the slot as one that a key sets in all its lanes
/// or in none. Free for batches without LaneSet slots.
template <typename B>
__device__ __forceinline__ B sharedPresence(const B &b, unsigned group,
                                            bool use) {
  constexpr unsigned kLane = B::laneSetInFirstWord();
  if constexpr (kLane == 0u) {
    (void)group, (void)use;
    return b;
  } else {
    B out = b;
    const unsigned mine = use ? (b.present[0] & kLane) : 0u;
    unsigned any = 0u;
#pragma unroll
    for (int i = 0; i < B::kSize; ++i) {
      if (!((kLane >> i) & 1u))
        continue;
      const bool set = (mine >> i) & 1u;
      if (!set)
        out.val[i] = typename B::Type(0);
      const unsigned setters = __ballot_sync(group, set);
      any |= setters ? 1u << i : 0u;
      if constexpr (HasAddresses<B>::value)
        if (setters)
          out.addr[i] = reinterpret_cast<typename B::Type *>(__shfl_sync(
              group, reinterpret_cast<unsigned long long>(b.addr[i]),
              __ffs(setters) - 1));
    }
    out.present[0] = (b.present[0] & ~kLane) | any;
    return out;
  }
}

/// Whether field k (a run-time index) was set in this lane's batch.
template <typename B>
__device__ __forceinline__ bool hasField(const B &b, int k) {
  bool has = false;
#pragma unroll
  for (int w = 0; w < B::kWords; ++w)
    if (k / 32 == w)
      has = b.has(w * 32 + k % 32);
  return has;
}

/// Adds `v` at `a` for field k of this lane's batch when the lane set it. An
/// AlwaysSet slot is issued with no test: the rewriter proved it set with the
/// key, and its address is then never null. A tracked slot also needs a
/// non-null address (addrOf returns nullptr for an absent field).
template <typename B, typename T>
__device__ __forceinline__ void issueField(const B &b, int k, T *a, T v) {
  if (B::alwaysSet(k) || (hasField(b, k) && a != nullptr))
    atomicAdd(a, v);
}

/// Adds fields [first, first + 4) of this lane's batch with one float4
/// atomic where they allow it: all set, at adjacent addresses, the first
/// 16-byte aligned and in global memory (sm_90's vector atomics take nothing
/// else). Returns whether it added them. Only sm_90 code calls it
/// (issueAdjacent).
template <typename B, typename A, int N>
__device__ __forceinline__ bool addFloat4(const B &b, const A &addr,
                                          const float (&val)[N], int first) {
  bool fits = first + 4 <= N;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    fits = fits && b.has(first + k);
  if (!fits)
    return false;
  float *const a = addr(first);
#pragma unroll
  for (int k = 1; k < 4; ++k)
    fits = fits && addr(first + k) == a + k;
  if (!fits || a == nullptr ||
      reinterpret_cast<unsigned long long>(a) % sizeof(float4) != 0 ||
      !__isGlobal(a))
    return false;
  atomicAdd(
      reinterpret_cast<float4 *>(a),
      make_float4(val[first], val[first + 1], val[first + 2], val[first + 3]));
  return true;
}

/// The Adjacent run that begins at slot Begin of a float batch B (none for
/// most slots): each 16-byte block of it (vector_plan.h) as one float4
/// atomic where it can be, marked in `done`; the rest is left to the
/// caller's single atomics. The rewriter marks runs in elements whose size
/// is a multiple of 16, so the run's phase holds wherever the buffer is
/// 16-byte aligned (and each vector checks its own alignment where not).
template <int Begin, typename B, typename A, int N>
__device__ __forceinline__ void addRun(const B &b, const A &addr,
                                       const float (&val)[N], bool (&done)[N]) {
  constexpr int kEnd = B::adjacentEnd(Begin);
  constexpr int kFirst = Begin + firstVector(B::adjacentPhase(Begin));
#pragma unroll
  for (int first = kFirst; first + 4 <= kEnd; first += 4) {
    const bool added = addFloat4(b, addr, val, first);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      done[first + k] = added;
  }
}

template <typename B, typename A, int N, int... I>
__device__ __forceinline__ void addRuns(const B &b, const A &addr,
                                        const float (&val)[N], bool (&done)[N],
                                        std::integer_sequence<int, I...>) {
  (addRun<I>(b, addr, val, done), ...);
}

/// Adds the batch's Adjacent runs as vector atomics where it can (sm_90,
/// float batches); `done` says which fields that added.
template <typename B, typename A, typename T, int N>
__device__ __forceinline__ void
issueAdjacent(const B &b, const A &addr, const T (&val)[N], bool (&done)[N]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (std::is_same<T, float>::value) {
    addRuns(b, addr, val, done, std::make_integer_sequence<int, N>());
    return;
  }
#endif
  (void)b, (void)addr, (void)val, (void)done;
}

/// Sums `val` (combined from the lanes of one key) at this lane's addresses,
/// skipping the slots `b` (this lane's batch) did not set: Adjacent runs as
/// vectors where they can be, every other field on its own.
template <typename B, typename A, typename T, int N>
__device__ __forceinline__ void plainAtomics(const B &b, const A &addr,
                                             const T (&val)[N]) {
  bool done[N] = {};
  issueAdjacent(b, addr, val, done);
#pragma unroll
  for (int i = 0; i < N; ++i)
    if (!done[i] && b.has(i))
      issueField(b, i, addr(i), val[i]);
}

/// This lane's own fields, unreduced.
template <typename B, typename A>
__device__ __forceinline__ void ownAtomics(const B &b, const A &addr) {
  plainAtomics(b, addr, b.val);
}

/// The most fields of a Consecutive batch that issueCoalesced hands round:
/// each of its instructions costs two shuffles for the address and one per
/// field, so longer batches keep the field-by-field issue.
constexpr int kMaxCoalescedFields = 8;

/// Whether lanes issue their own fields of a batch of type B with
/// issueCoalesced.
template <typename B> __host__ __device__ constexpr bool issuesCoalesced() {
  return B::kConsecutive && B::kSize >= 2 && B::kSize <= kMaxCoalescedFields;
}

/// The lanes of `mask` call together; those with `issues` set add `val` at
/// their fields. A lane whose fields are all set and follow each other in
/// memory (field k at addr(0) + k) is "whole": the whole lanes' pairs,
/// numbered lane after lane (pair j * N + k: the j-th whole lane's field k),
/// are issued by the calling lanes in turn, the lane of rank r taking pairs
/// r, r + count, ... So one instruction adds up to 32 consecutive fields
/// (lanes with neighbouring keys: whole cache sectors) rather than field k
/// of every lane, 32 elements N apart: on the bilinear texture backward
/// (3 channels, sm_90) the L2 then takes the same atomics in 0.6 times the
/// time (bench/micro/CoalescedIssue.cu). Every pair is still added once, by
/// one atomic. Other issuing lanes add their own fields as plainAtomics.
template <typename B, typename A, typename T, int N>
__device__ __forceinline__ void issueCoalesced(const B &b, const A &addr,
                                               const T (&val)[N], bool issues,
                                               unsigned mask) {
  T *base = nullptr;
  bool whole = false;
  if (issues) {
    base = addr(0);
    whole = base != nullptr;
#pragma unroll
    for (int k = 0; k < N; ++k)
      whole = whole && b.has(k) && addr(k) == base + k;
    if (!whole)
      plainAtomics(b, addr, val);
  }
  const unsigned wholeLanes = __ballot_sync(mask, whole);
  const int pairs = popCount(wholeLanes) * N;
  const int count = popCount(mask);
  const int rank = popCount(mask & laneMaskLt());
  for (int first = 0; first < pairs; first += count) {
    const int pair = first + rank < pairs ? first + rank : pairs - 1;
    const int owner = pair / N, slot = pair % N;
    const int src =
        wholeLanes == kFullMask ? owner : nthSetBit(wholeLanes, owner);
    T *const at = reinterpret_cast<T *>(
        __shfl_sync(mask, reinterpret_cast<unsigned long long>(base), src));
    T sum = T(0);
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const T x = __shfl_sync(mask, val[k], src);
      sum = slot == k ? x : sum;
    }
    if (first + rank < pairs)
      atomicAdd(at + slot, sum);
  }
}

/// The lanes of `mask` call together; those with `issues` set add their own
/// fields, unreduced: lane after lane for a Consecutive batch, else each
/// lane its own. Only the unreduced path coalesces: after a reduction a warp
/// has a few leaders with a few sums each, and handing those round cost
/// more than it saved (the magnified texture: 0.097 ms against 0.076 ms,
/// bench/RESULTS.md).
template <typename B, typename A>
__device__ __forceinline__ void issueOwn(const B &b, const A &addr, bool issues,
                                         unsigned mask) {
  if constexpr (issuesCoalesced<B>()) {
    issueCoalesced(b, addr, b.val, issues, mask);
  } else {
    (void)mask;
    if (issues)
      ownAtomics(b, addr);
  }
}

/// Field k of register arrays without dynamic indexing (which would move the
/// arrays to local memory): a chain of selects.
template <typename A, typename T, int N>
__device__ __forceinline__ void selectField(int k, const A &addr,
                                            const T (&val)[N], T *&a, T &v) {
  a = nullptr;
  v = T(0);
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if (i == k) {
      a = addr(i);
      v = val[i];
    }
  }
}

/// Fields rank, rank + count, ... from this lane, with its own addresses.
template <typename B, typename A, typename T, int N>
__device__ __forceinline__ void issueStrided(const B &b, int rank, int count,
                                             const A &addr, const T (&sum)[N]) {
  for (int k = rank; k < N; k += count) {
    T *a;
    T v;
    selectField(k, addr, sum, a, v);
    issueField(b, k, a, v);
  }
}

/// The OR over the warp of the first presence word (slots 0..31): bit i set
/// when some lane set tracked slot i. All 32 lanes call together. Zero when
/// the batch tracks no slot among the first 32 (no instruction then).
template <typename B>
__device__ __forceinline__ unsigned warpPresence(const B &b) {
  if constexpr (B::trackedInFirstWord() == 0u) {
    (void)b;
    return 0u;
  } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    // No warp-wide OR before sm_80: every tracked slot counts as present (its
    // tree runs; absent lanes add zeros).
    (void)b;
    return ~0u;
#else
    return __reduce_or_sync(kFullMask, b.present[0]);
#endif
  }
}

/// reduceFullWarp for strategies that combine by shuffle trees (and for
/// batches of more than 32 fields): every lane ends with every field's sum.
/// A tracked slot that no lane of the warp set (its grid-uniform condition
/// is false: 3DGS without inverse depth) is not reduced: one warp-wide OR of
/// the presence words instead of 5 shuffles per such slot. Slots 32 and up
/// are always reduced.
template <typename S, typename B, typename A, typename T, int N>
__device__ __forceinline__ void treeFullWarp(const B &b, T (&v)[N],
                                             const A &addr, unsigned active) {
  const int lane = laneId();
  const bool isActive = (active >> lane) & 1u;
  const int count = popCount(active);
  const int rank = popCount(active & laneMaskLt());
  const unsigned anyPresent = warpPresence(b);
  auto skippable = [](int i) {
    return i < 32 && ((B::trackedInFirstWord() >> i) & 1u);
  };
#pragma unroll
  for (int offset = 16; offset >= 1; offset >>= 1) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (!skippable(i))
        v[i] += __shfl_xor_sync(kFullMask, v[i], offset);
  }
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if (skippable(i) && ((anyPresent >> i) & 1u)) {
#pragma unroll
      for (int offset = 16; offset >= 1; offset >>= 1)
        v[i] += __shfl_xor_sync(kFullMask, v[i], offset);
    }
  }
  if constexpr (S::kLeaderIssues) {
    if (rank == 0 && isActive)
      plainAtomics(b, addr, v);
  } else {
    if (isActive)
      issueStrided(b, rank, count, addr, v);
  }
}

/// After the reduce-scatter: one shuffle per field gathers the sums in every
/// lane, and the active lane of rank 0 issues them all.
template <typename B, typename A, typename T, int N>
__device__ __forceinline__ void issueGathered(const B &b, const A &addr,
                                              const T (&v)[N], int rank,
                                              bool isActive) {
  constexpr ScatterHolders<N> kHolders = scatterHolders<N>();
  T sum[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    sum[k] = __shfl_sync(kFullMask, v[0], kHolders.lane[k]);
  if (rank == 0 && isActive)
    plainAtomics(b, addr, sum);
}

/// After the reduce-scatter, when every lane is active (so every lane's
/// addresses are valid): each holder issues its own field, with no fetch
/// shuffle. With fewer than 5 halvings, lanes differing only in the low bits
/// hold copies; the one with those bits clear issues.
template <typename B, typename A, typename T, int N>
__device__ __forceinline__ void issueFromHolders(const B &b, const A &addr,
                                                 const T (&v)[N], int lane) {
  constexpr int kCopies = 32 >> scatterHalvings(N);
  if ((lane & (kCopies - 1)) == 0 && scatterValid(N, lane)) {
    T *a;
    T unused;
    const int k = scatterField(N, lane);
    selectField(k, addr, v, a, unused);
    issueField(b, k, a, v[0]);
  }
}

/// After the reduce-scatter, when some lanes are inactive: the active lane of
/// rank r fetches and issues fields r, r + count, ..., so that only addresses
/// of active lanes are used. Every lane runs the same shuffles.
template <typename B, typename A, typename T, int N>
__device__ __forceinline__ void
issueFetched(const B &b, const A &addr, const T (&v)[N], int lane,
             bool isActive, int rank, int count) {
  for (int first = 0; first < N; first += count) {
    const int k = first + rank;
    const int src = k < N ? scatterHolder(N, k) : lane;
    const T sum = __shfl_sync(kFullMask, v[0], src);
    if (isActive && k < N) {
      T *a;
      T unused;
      selectField(k, addr, v, a, unused);
      issueField(b, k, a, sum);
    }
  }
}

/// reduceFullWarp for strategies that combine by reduce-scatter (N <= 32):
/// recursive halving (the layout is described in distwar/lane_math.h)
/// leaves the sum of field k in v[0] of lane scatterHolder(N, k); then the
/// leader gathers and issues the sums (leader strategies), or each field is
/// issued by its holder (every lane active) or fetched by an active lane.
template <typename S, typename B, typename A, typename T, int N>
__device__ __forceinline__ void
scatterFullWarp(const B &b, T (&v)[N], const A &addr, unsigned active) {
  static_assert(N <= kWarpSize, "distwar: a reduce-scatter of at most 32 "
                                "fields (one per lane)");
  const int lane = laneId();
  const bool isActive = (active >> lane) & 1u;
  const int count = popCount(active);
  const int rank = popCount(active & laneMaskLt());
  int kept = N;
#pragma unroll
  for (int step = 0; step < 5; ++step) {
    const int offset = 16 >> step;
    if (kept > 1) {
      const int half = (kept + 1) / 2;
      const bool upper = (lane & offset) != 0;
#pragma unroll
      for (int i = 0; i < N; ++i) {
        if (i < half) {
          const int hi = half + i;
          const T low = v[i];
          const T high = hi < kept ? v[hi < N ? hi : N - 1] : T(0);
          const T send = upper ? low : high;
          v[i] =
              (upper ? high : low) + __shfl_xor_sync(kFullMask, send, offset);
        }
      }
      kept = half;
    } else {
      v[0] += __shfl_xor_sync(kFullMask, v[0], offset);
    }
  }
  if constexpr (S::kLeaderIssues) {
    issueGathered(b, addr, v, rank, isActive);
    return;
  }
  if (active == kFullMask) {
    issueFromHolders(b, addr, v, lane);
    return;
  }
  issueFetched(b, addr, v, lane, isActive, rank, count);
}

/// All 32 lanes call together. `v` holds each lane's values (zeros for lanes
/// outside `active`); `active` is non-empty and its lanes' addresses are valid.
/// Strategy S decides how the sums are combined and which lanes issue them.
template <typename S, typename B, typename A, typename T, int N>
__device__ __forceinline__ void reduceFullWarp(const B &b, T (&v)[N],
                                               const A &addr, unsigned active) {
  if constexpr (S::kReduceScatter && N <= kWarpSize)
    scatterFullWarp<S>(b, v, addr, active);
  else
    treeFullWarp<S>(b, v, addr, active);
}

/// Segmented reduction over key groups (`peers`, from match-any over `mask`).
/// Group ranks follow lane order. For field i, the lane of rank r acts as
/// virtual rank (r - i) mod g (leader strategies: r) in a shift-down tree, so
/// the sum of field i lands on rank i mod g (leader strategies: rank 0). The
/// source of every field is the same lane, rank (r + offset) mod g
/// (forEachTreeStep).
template <typename S, typename B, typename A, typename T, int N>
__device__ __forceinline__ void reduceSegmented(const B &b, T (&v)[N],
                                                const A &addr, unsigned mask,
                                                unsigned peers) {
  constexpr bool kRotate = !S::kLeaderIssues;
  const int groupSize = popCount(peers);
  const int rank = popCount(peers & laneMaskLt());
  int virtualRank[N];
  virtualRank[0] = rank;
#pragma unroll
  for (int i = 1; i < N; ++i)
    virtualRank[i] =
        virtualRank[i - 1] == 0 ? groupSize - 1 : virtualRank[i - 1] - 1;

  forEachTreeStep(mask, peers, groupSize, [&](int offset, int source) {
  // A field is taken only where the tree's rank for it has a rank that
  // far on in the group.
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const T x = __shfl_sync(mask, v[i], source);
      const bool take = (kRotate ? virtualRank[i] : rank) + offset < groupSize;
      v[i] += take ? x : T(0);
    }
  });
  if constexpr (kRotate) {
    issueStrided(b, rank, groupSize, addr, v);
  } else {
    if (rank == 0)
      plainAtomics(b, addr, v);
  }
}

/// Sums 32-bit integer fields over each key group (`peers`) with one
/// __reduce_add_sync per field (sm_80 and newer): every lane of a group gets
/// every sum, exact and wrapping as the atomics would. Returns false (and
/// does nothing) for other types and older GPUs, which take the trees.
/// Lanes of different groups call with different masks, each naming exactly
/// its own group, as cooperative groups' reduce over a labeled partition.
template <typename S, typename B, typename A, typename T, int N>
__device__ __forceinline__ bool reduceIntGroups(const B &b, T (&v)[N],
                                                const A &addr, unsigned peers) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_integral<T>::value && sizeof(T) == 4) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      v[i] = __reduce_add_sync(peers, v[i]);
    const int rank = popCount(peers & laneMaskLt());
    if constexpr (S::kLeaderIssues) {
      if (rank == 0)
        plainAtomics(b, addr, v);
    } else {
      issueStrided(b, rank, popCount(peers), addr, v);
    }
    return true;
  }
#endif
  (void)b, (void)v, (void)addr, (void)peers;
  return false;
}

/// Whether a full warp's butterfly call reduces (all 32 lanes present): at
/// least `threshold` lanes are active (`ballot`) and, with CheckKey, every
/// active lane's key equals the first active lane's. The same in every lane.
template <bool CheckKey, typename Key, typename Threshold>
__device__ __forceinline__ bool fullWarpReduces(unsigned ballot, bool active,
                                                Key key, Threshold threshold) {
  const int count = popCount(ballot);
  if constexpr (CheckKey) {
    const MatchType<Key> mine = matchKey(key);
    const MatchType<Key> first =
        __shfl_sync(kFullMask, mine, __ffs(ballot) - 1);
    // The key needs a vote anyway; an int threshold rides along in it.
    return __all_sync(kFullMask, (!active || mine == first) &&
                                     count >= static_cast<int>(threshold));
  } else {
    (void)active, (void)key;
    return allReach(kFullMask, count, threshold);
  }
}

template <typename S, bool CheckKey, typename B, typename A, typename Key,
          typename Threshold>
__device__ __forceinline__ void butterfly(const B &b, bool active, Key key,
                                          Threshold threshold, const A &addr) {
  checkStrategy<S>();
  if constexpr (B::kSize == 0) {
    // No field (a channel loop instantiated with no channels): no lane
    // adds anything.
    (void)b, (void)active, (void)key, (void)threshold, (void)addr;
  } else {
    // Only a warp whose 32 lanes execute this call together is reduced. Lanes
    // that are absent (exited, diverged, not yet arrived) are never waited for:
    // the ballot is over the lanes present, and when none of them is active
    // there is nothing to add. Every case that is not reduced leaves through
    // one plain-atomic path: one copy of the N atomics in the caller's loop,
    // not one per reason (smaller loops let ptxas keep the shared-memory
    // addressing out of them).
    const unsigned present = __activemask();
    const unsigned ballot = __ballot_sync(present, active);
    if (ballot == 0)
      return;
    bool reduce = false;
    if (present == kFullMask)
      reduce = fullWarpReduces<CheckKey>(ballot, active, key, threshold);
    if (!reduce) {
      issueOwn(b, addr, active, present);
      return;
    }
    const B shared = sharedPresence(b, kFullMask, active);
    typename B::Type v[B::kSize];
    unpackValues(shared, active, v);
    reduceFullWarp<S>(shared, v, addressesOf(addr, shared), ballot);
  }
}

/// The match of a serial reduction that keeps no peers: every call matches.
struct MatchEachTime {
  template <typename M>
  __device__ __forceinline__ unsigned match(unsigned mask, M key) const {
    return __match_any_sync(mask, key);
  }
  __device__ __forceinline__ void skipped() const {}
};

/// The lanes of `mask` call together, each with its key group `peers`
/// (lanes of one key); each group's sums are issued once per field.
template <typename S, typename B, typename A>
__device__ __forceinline__ void reduceMatched(const B &b, const A &addr,
                                              unsigned mask, unsigned peers) {
  const B shared = sharedPresence(b, peers, true);
  typename B::Type v[B::kSize];
  unpackValues(shared, true, v);
  if (reduceIntGroups<S>(shared, v, addressesOf(addr, shared), peers))
    return;
  // One key over the whole warp is the butterfly's case: every lane agrees on
  // it (peers is the same full mask in all of them).
  if (peers == kFullMask)
    reduceFullWarp<S>(shared, v, addressesOf(addr, shared), kFullMask);
  else
    reduceSegmented<S>(shared, v, addressesOf(addr, shared), mask, peers);
}

template <typename S, typename B, typename A, typename Key, typename Threshold,
          typename Match = MatchEachTime>
__device__ __forceinline__ void serial(const B &b, Key key, Threshold threshold,
                                       const A &addr, Match match = {}) {
  checkStrategy<S>();
  if constexpr (B::kSize == 0) {
    // No field (a channel loop instantiated with no channels): no lane
    // adds anything.
    (void)b, (void)key, (void)threshold, (void)addr;
    match.skipped();
  } else {
    const unsigned mask = __activemask();
    const int calling = popCount(mask);
    if (!allReach(mask, calling, threshold)) {
      match.skipped();
      issueOwn(b, addr, true, mask);
      return;
    }
    reduceMatched<S>(b, addr, mask, match.match(mask, matchKey(key)));
  }
}

/// The match of a serial reduction through a KeptPeers: Reuse takes the
/// kept groups when every calling lane kept them at the same calling mask
/// (and matches afresh otherwise); either way the groups it used are kept.
template <bool Reuse> struct MatchKept {
  KeptPeers &kept;
  template <typename M>
  __device__ __forceinline__ unsigned match(unsigned mask, M key) const {
    // Each lane keeps the mask of its latest keeping call. When all lanes of
    // `mask` kept `mask`, that was one call that all of them made together
    // (a lane in a later one would have kept a mask without the others),
    // so every lane's peers come from the same match over these lanes, and
    // the key, which the rewriter proved unchanged since, still groups them
    // so. The vote makes the choice the same in every calling lane.
    if (Reuse && __all_sync(mask, kept.mask == mask))
      return kept.peers;
    const unsigned peers = __match_any_sync(mask, key);
    kept.mask = mask;
    kept.peers = peers;
    return peers;
  }
  /// A call that matched nothing: a keeping call leaves nothing to reuse; a
  /// reusing one leaves the groups it was given for later calls.
  __device__ __forceinline__ void skipped() const {
    if (!Reuse)
      kept.mask = 0;
  }
};

template <typename B, typename A>
__device__ __forceinline__ void plain(const B &b, const A &addr) {
  if constexpr (B::kSize == 0) {
    // No field: nothing to add (and no slot whose presence could be read).
    (void)b, (void)addr;
  } else {
    ownAtomics(b, addr);
  }
}

} // namespace detail

/// Every lane that calls issues its own atomics: the unreduced baseline, with
/// the batch's semantics (a tracked slot is added only where it was set).
template <typename T, int N, typename... R>
__device__ __forceinline__ void reducePlain(const Batch<T, N, R...> &b) {
  detail::plain(b, detail::BatchAddress<Batch<T, N, R...>>{b});
}

/// As reducePlain, with deferred addresses: every calling lane calls
/// `addrOf(k)` for the fields it set (see reduceSerial).
template <typename T, int N, typename... R, typename AddrOf>
__device__ __forceinline__ void reducePlain(const Fields<T, N, R...> &f,
                                            const AddrOf &addrOf) {
  detail::plain(f, addrOf);
}

/// Lanes that call are grouped by key (match-any over exactly the calling
/// lanes); each group's sums are issued once per field, with the addresses of
/// the issuing lane (same key implies same addresses). When fewer than
/// `threshold` lanes call, every calling lane issues plain atomics.
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold>
__device__ __forceinline__ void reduceSerial(const Batch<T, N, R...> &b,
                                             Key key, Threshold threshold) {
  detail::serial<S>(b, key, threshold,
                    detail::BatchAddress<Batch<T, N, R...>>{b});
}

/// As reduceSerial, with deferred addresses: `addrOf(k)` (k a compile-time
/// constant) returns field k's address for this lane's key, or nullptr;
/// only issuing lanes call it, after the reduction.
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold, typename AddrOf>
__device__ __forceinline__ void reduceSerial(const Fields<T, N, R...> &f,
                                             Key key, Threshold threshold,
                                             const AddrOf &addrOf) {
  detail::serial<S>(f, key, threshold, addrOf);
}

/// As reduceSerial, keeping the key groups it matches in \p use
/// (keepPeers(kept)) or first trying the groups an earlier call kept
/// (reusePeers(kept)). distwar-rewrite gives one KeptPeers to consecutive
/// serial groups of one block with one key variable that does not change
/// (a primitive's float gradients and its int counter): the later calls skip
/// their match when the same lanes call them. Which lanes call is checked at
/// run time; that the key is the same is the caller's promise.
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold, bool Reuse>
__device__ __forceinline__ void reduceSerial(const Batch<T, N, R...> &b,
                                             Key key, Threshold threshold,
                                             detail::PeersUse<Reuse> use) {
  detail::serial<S>(b, key, threshold,
                    detail::BatchAddress<Batch<T, N, R...>>{b},
                    detail::MatchKept<Reuse>{use.kept});
}

/// As the KeptPeers reduceSerial, with deferred addresses.
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold, typename AddrOf, bool Reuse>
__device__ __forceinline__ void
reduceSerial(const Fields<T, N, R...> &f, Key key, Threshold threshold,
             const AddrOf &addrOf, detail::PeersUse<Reuse> use) {
  detail::serial<S>(f, key, threshold, addrOf,
                    detail::MatchKept<Reuse>{use.kept});
}

/// Every lane of the warp is meant to call; inactive lanes pass
/// active = false (their values are ignored). Reduces with a 32-lane shuffle
/// tree only when all 32 lanes are present, all active lanes share `key` and
/// at least `threshold` lanes are active; otherwise the active lanes issue
/// plain atomics.
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold>
__device__ __forceinline__ void reduceButterfly(const Batch<T, N, R...> &b,
                                                bool active, Key key,
                                                Threshold threshold) {
  detail::butterfly<S, /*CheckKey=*/true>(
      b, active, key, threshold, detail::BatchAddress<Batch<T, N, R...>>{b});
}

/// As reduceButterfly, with deferred addresses (see reduceSerial).
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold, typename AddrOf>
__device__ __forceinline__ void
reduceButterfly(const Fields<T, N, R...> &f, bool active, Key key,
                Threshold threshold, const AddrOf &addrOf) {
  detail::butterfly<S, /*CheckKey=*/true>(f, active, key, threshold, addrOf);
}

/// As reduceButterfly, for a key the rewriter proved warp-uniform: no key
/// comparison.
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold>
__device__ __forceinline__ void
reduceButterflyUniform(const Batch<T, N, R...> &b, bool active, Key key,
                       Threshold threshold) {
  detail::butterfly<S, /*CheckKey=*/false>(
      b, active, key, threshold, detail::BatchAddress<Batch<T, N, R...>>{b});
}

/// As reduceButterflyUniform, with deferred addresses (see reduceSerial).
template <typename S = DefaultStrategy, typename T, int N, typename... R,
          typename Key, typename Threshold, typename AddrOf>
__device__ __forceinline__ void
reduceButterflyUniform(const Fields<T, N, R...> &f, bool active, Key key,
                       Threshold threshold, const AddrOf &addrOf) {
  detail::butterfly<S, /*CheckKey=*/false>(f, active, key, threshold, addrOf);
}

namespace detail {

/// A butterfly call site written with both forms, in the version of its loop
/// that the site value's form picked (runForms): the serial reduction over
/// the active lanes (Serial), or the butterfly over the warp. Either adds the
/// same sums at the same point of the program; which is faster depends on
/// the data (how many lanes share a key, how many are active), so the
/// launch's tuner picks.
template <typename S, bool CheckKey, bool Serial, typename B, typename A,
          typename Key, typename Threshold>
__device__ __forceinline__ void
butterflyOrSerial(std::bool_constant<Serial>, const B &b, bool active, Key key,
                  Threshold threshold, const A &addr) {
  if constexpr (Serial) {
    if (active)
      serial<S>(b, key, threshold, addr);
  } else {
    butterfly<S, CheckKey>(b, active, key, threshold, addr);
  }
}

} // namespace detail

/// Runs `loop` (a generic lambda taking the form) as loop(std::true_type{})
/// where the site value `form` asks for the serial form, else as
/// loop(std::false_type{}): each version of the loop holds one form's code
/// only (one loop with both forms' code ran slower in either form: the
/// serial form's registers and branches sat in the butterfly's loop). The
/// value is the same in the whole grid, so the branch is uniform.
template <typename Loop>
__device__ __forceinline__ void runForms(UniformThreshold form, Loop &&loop) {
  if (form.serialForm())
    loop(std::true_type{});
  else
    loop(std::false_type{});
}

/// In the version runForms chose: as reduceButterfly (false_type), or as
/// reduceSerial called by the active lanes (true_type).
template <typename S = DefaultStrategy, bool Serial, typename T, int N,
          typename... R, typename Key, typename Threshold>
__device__ __forceinline__ void
reduceButterflyOrSerial(std::bool_constant<Serial> form,
                        const Batch<T, N, R...> &b, bool active, Key key,
                        Threshold threshold) {
  detail::butterflyOrSerial<S, /*CheckKey=*/true>(
      form, b, active, key, threshold,
      detail::BatchAddress<Batch<T, N, R...>>{b});
}

/// As reduceButterflyOrSerial, with deferred addresses (see reduceSerial).
template <typename S = DefaultStrategy, bool Serial, typename T, int N,
          typename... R, typename Key, typename Threshold, typename AddrOf>
__device__ __forceinline__ void
reduceButterflyOrSerial(std::bool_constant<Serial> form,
                        const Fields<T, N, R...> &f, bool active, Key key,
                        Threshold threshold, const AddrOf &addrOf) {
  detail::butterflyOrSerial<S, /*CheckKey=*/true>(form, f, active, key,
                                                  threshold, addrOf);
}

/// As reduceButterflyUniform, or the serial form (see
/// reduceButterflyOrSerial).
template <typename S = DefaultStrategy, bool Serial, typename T, int N,
          typename... R, typename Key, typename Threshold>
__device__ __forceinline__ void
reduceButterflyUniformOrSerial(std::bool_constant<Serial> form,
                               const Batch<T, N, R...> &b, bool active,
                               Key key, Threshold threshold) {
  detail::butterflyOrSerial<S, /*CheckKey=*/false>(
      form, b, active, key, threshold,
      detail::BatchAddress<Batch<T, N, R...>>{b});
}

/// As reduceButterflyUniformOrSerial, with deferred addresses.
template <typename S = DefaultStrategy, bool Serial, typename T, int N,
          typename... R, typename Key, typename Threshold, typename AddrOf>
__device__ __forceinline__ void
reduceButterflyUniformOrSerial(std::bool_constant<Serial> form,
                               const Fields<T, N, R...> &f, bool active,
                               Key key, Threshold threshold,
                               const AddrOf &addrOf) {
  detail::butterflyOrSerial<S, /*CheckKey=*/false>(form, f, active, key,
                                                   threshold, addrOf);
}

/// True when some lane executing this call together with the caller has
/// `active` set (the caller's own flag included): the warp-uniform branch
/// around the statements butterfly output runs in every lane (speculation,
/// GENERATED_CODE.md section 6). A lane whose own flag is set always gets
/// true; lanes not present (exited, diverged) are not waited for.
__device__ __forceinline__ bool anyActive(bool active) {
  return __any_sync(__activemask(), active);
}

namespace detail {
// A bit pattern that arithmetic does not produce for floats (a NaN with a
// payload) and that integer gradients practically never hit.
__device__ __forceinline__ bool floorSentinel(float v) {
  return __float_as_uint(v) == 0x7fa5f00du;
}
__device__ __forceinline__ bool floorSentinel(double v) {
  return __double_as_longlong(v) == 0x7ff5f00dbadf00dll;
}
__device__ __forceinline__ bool floorSentinel(int v) {
  return v == static_cast<int>(0x85f00d5au);
}
__device__ __forceinline__ bool floorSentinel(unsigned v) {
  return v == 0x85f00d5au;
}
__device__ __forceinline__ bool floorSentinel(unsigned long long v) {
  return v == 0x85f00d5abadf00dull;
}
} // namespace detail

/// Benchmark aid (the no-atomic floor): forces `value` and `addr` to be
/// computed but, in practice, touches no memory. An empty asm statement is not
/// enough (ptxas removes the computation feeding it), so the value is compared
/// with a sentinel bit pattern and only that value would be added (keeping
/// even that case correct): one compare and a never-taken branch per field.
template <typename T>
__device__ __forceinline__ void floorAdd(T *addr, T value) {
  if (detail::floorSentinel(value))
    atomicAdd(addr, value);
}

} // namespace distwar

#endif // DISTWAR_REDUCE_CUH
