//===- distwar/block_accumulate.cuh - Block-level gradient accumulation ---===//
//
// Accumulates the gradients of a thread block in shared memory, keyed by
// primitive, and issues one global atomic per (primitive, field) when the
// block is done. For per-lane keys (a pixel's k-th sphere, a bilinear
// corner's texel): a warp-level match finds few coincidences within one
// iteration, while the lanes of a block hit a small set of primitives over
// the whole loop.
//
// The table is open addressing with linear probing, keyed by a non-negative
// int (the primitive's index), with Fields float and IntFields int
// accumulators per entry. The caller sizes it (Capacity, a power of two) and
// places it in shared memory. A key that finds no slot within kMaxProbes
// probes (the table is full, or the block's work was larger than the caller
// planned) is not lost: the lane issues its own global atomics (the overflow
// path), so any Capacity is correct and only its speed depends on the size.
//
// Protocol (every function documents which threads must call it):
//   __shared__ BlockTable<256, 20, 1> table;
//   blockTableInit(table);              // every thread of the block
//   ... loop: blockAccumulateWarp(...) or blockAccumulateLane(...) ...
//   blockTableFlush(table, addr, intAddr); // every thread of the block
// Init and flush contain __syncthreads(), so every thread of the block must
// reach them, the same number of times, in uniform control flow: a kernel
// that returns early for pixels outside the image must keep those threads
// (an `inside` flag) instead. Between init and flush no other barrier is
// needed: entries are claimed with atomicCAS and added to with atomicAdd, so
// the adds of different warps may interleave in any order.
//
// What it costs on sm_90 (ptxas of CUDA 13.0, read with cuobjdump -sass;
// bench/shared_atomics_sass.cu, bench/RESULTS.md "Block-level accumulation"):
// a float atomicAdd to shared memory is not one instruction but a loop,
//   LDS old; FADD new = old + v; ATOMS.CAST.SPIN [a], old, new; retry if the
//   word changed,
// so lanes of one warp that add to the same word in one instruction take one
// trip each (up to 32), while lanes with different words finish in one trip.
// An int add is a native ATOMS.ADD (ATOMS.POPC.INC for a constant 1) and the
// claim of an entry one ATOMS.CAS. This is why blockAccumulateWarp first sums
// each key group of the warp in registers (match-any, a shift-down shuffle
// tree), so that one lane per key enters the loop; blockAccumulateLane is
// for keys that rarely coincide within a warp.
//
// Rounding: each (primitive, field) is summed in float in shared memory,
// then added once to global memory. The result differs from plain atomics by
// reordering only.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_BLOCK_ACCUMULATE_CUH
#define DISTWAR_BLOCK_ACCUMULATE_CUH

#include "distwar/block_table.cuh"

namespace distwar {

/// A block's accumulators: Capacity entries of Fields floats and IntFields
/// ints each, with their keys. Field-major, so that the adds of lanes with
/// different keys to one field fall in different banks.
template <int Capacity, int Fields, int IntFields = 0> struct BlockTable {
  static_assert(Capacity > 0 && (Capacity & (Capacity - 1)) == 0,
                "BlockTable: Capacity must be a power of two");
  static_assert(Fields >= 1 && IntFields >= 0,
                "BlockTable: at least one float field");
  static constexpr int kCapacity = Capacity;
  static constexpr int kFields = Fields;
  static constexpr int kIntFields = IntFields;
  /// Probes before a key overflows to plain atomics.
  static constexpr int kMaxProbes = detail::maxProbes<Capacity>();

  int keys[Capacity];
  float values[Fields][Capacity];
  int counts[IntFields > 0 ? IntFields : 1][IntFields > 0 ? Capacity : 1];
};

/// Clears the table. Every thread of the block calls it, once, before any
/// add; it ends with __syncthreads().
template <int Cap, int F, int IF>
__device__ __forceinline__ void blockTableInit(BlockTable<Cap, F, IF> &t) {
  const int n = detail::threadsInBlock();
  for (int i = detail::threadRankInBlock(); i < Cap; i += n) {
    t.keys[i] = kEmptyKey;
#pragma unroll
    for (int f = 0; f < F; ++f)
      t.values[f][i] = 0.f;
#pragma unroll
    for (int f = 0; f < IF; ++f)
      t.counts[f][i] = 0;
  }
  __syncthreads();
}

/// The entry of `key` (>= 0), claimed if new, or kNoSlot when kMaxProbes
/// probes found neither it nor a free entry. Any lane, any time between init
/// and flush. One atomicCAS per probe: the key words are only ever accessed
/// atomically until the flush, so concurrent claims of one entry agree.
template <int Cap, int F, int IF>
__device__ __forceinline__ int blockTableSlot(BlockTable<Cap, F, IF> &t,
                                              int key) {
  return detail::claimEntry(t.keys, key);
}

/// Adds one lane's values for `key` to the table, or, when the key finds no
/// entry, issues them as global atomics at addr(key, field) and
/// intAddr(key, field). Zero values are skipped (nothing to add). Any subset
/// of lanes; no warp-level operation, so it may sit under per-lane branches.
template <int Cap, int F, int IF, typename Addr, typename IntAddr>
__device__ __forceinline__ void
blockAccumulateLane(BlockTable<Cap, F, IF> &t, int key, const float (&v)[F],
                    const int (&c)[IF > 0 ? IF : 1], const Addr &addr,
                    const IntAddr &intAddr) {
  const int slot = blockTableSlot(t, key);
  if (slot == kNoSlot) {
#pragma unroll
    for (int f = 0; f < F; ++f)
      if (v[f] != 0.f)
        atomicAdd(addr(key, f), v[f]);
#pragma unroll
    for (int f = 0; f < IF; ++f)
      if (c[f] != 0)
        atomicAdd(intAddr(key, f), c[f]);
    return;
  }
#pragma unroll
  for (int f = 0; f < F; ++f)
    if (v[f] != 0.f)
      atomicAdd(&t.values[f][slot], v[f]);
#pragma unroll
  for (int f = 0; f < IF; ++f)
    if (c[f] != 0)
      atomicAdd(&t.counts[f][slot], c[f]);
}

/// As blockAccumulateLane, after summing the lanes of the warp that share a
/// key in registers: only each key's lowest lane touches the table. Every lane
/// of `mask` must call it together (a warp-level match and shuffles), each
/// with its own `active`; inactive lanes add nothing and their key and
/// values are ignored. `mask` is the set of lanes that call (the full warp in
/// a kernel that keeps every lane in the loop). The values are consumed (the
/// leader's hold the sums afterwards).
template <int Cap, int F, int IF, typename Addr, typename IntAddr>
__device__ __forceinline__ void
blockAccumulateWarp(BlockTable<Cap, F, IF> &t, unsigned mask, bool active,
                    int key, float (&v)[F], int (&c)[IF > 0 ? IF : 1],
                    const Addr &addr, const IntAddr &intAddr) {
  if (!__any_sync(mask, active))
    return;
  // Inactive lanes form their own group (kEmptyKey) and never issue.
  const unsigned peers = __match_any_sync(mask, active ? key : kEmptyKey);
  if (!active) {
#pragma unroll
    for (int f = 0; f < F; ++f)
      v[f] = 0.f;
#pragma unroll
    for (int f = 0; f < (IF > 0 ? IF : 1); ++f)
      c[f] = 0;
  }
  if constexpr (IF > 0)
    detail::sumToLeader(mask, peers, v, c);
  else
    detail::sumToLeader(mask, peers, v);
  if (active && (peers & detail::laneMaskLt()) == 0)
    blockAccumulateLane(t, key, v, c, addr, intAddr);
}

/// Sums v over the lanes of `mask` that are active and pass the same
/// `matchKey`, into the lowest such lane, and returns true in that lane
/// (false elsewhere: its values are then partial sums). For a caller that
/// groups lanes by something other than the table key: the lanes of a
/// bilinear lookup with the same base texel share all four corners, so one
/// match serves four table keys. Every lane of `mask` calls it together.
template <int F>
__device__ __forceinline__ bool warpSumByKey(unsigned mask, bool active,
                                             unsigned matchKey,
                                             float (&v)[F]) {
  // An inactive lane may pass any key: it is its own group of one, takes
  // part in the shuffles (they need every lane of `mask`) and is never read.
  const unsigned activeLanes = __ballot_sync(mask, active);
  const unsigned matched = __match_any_sync(mask, matchKey);
  const unsigned peers =
      active ? matched & activeLanes : 1u << detail::laneId();
  detail::sumToLeader(mask, peers, v);
  return active && (peers & detail::laneMaskLt()) == 0;
}

/// Issues the table: one global atomic per (key, field) with a nonzero sum,
/// at addr(key, field) / intAddr(key, field). Every thread of the block calls
/// it, once, after its last add; it starts with __syncthreads(). Consecutive
/// threads take consecutive fields of one entry, so the atomics of one
/// primitive leave together.
template <int Cap, int F, int IF, typename Addr, typename IntAddr>
__device__ __forceinline__ void blockTableFlush(BlockTable<Cap, F, IF> &t,
                                                const Addr &addr,
                                                const IntAddr &intAddr) {
  __syncthreads();
  constexpr int kPerEntry = F + IF;
  const int n = detail::threadsInBlock();
  for (int i = detail::threadRankInBlock(); i < Cap * kPerEntry; i += n) {
    const int slot = i / kPerEntry;
    const int f = i - slot * kPerEntry;
    const int key = t.keys[slot];
    if (key == kEmptyKey)
      continue;
    if (f < F) {
      const float v = t.values[f][slot];
      if (v != 0.f)
        atomicAdd(addr(key, f), v);
    } else if constexpr (IF > 0) {
      const int c = t.counts[f - F][slot];
      if (c != 0)
        atomicAdd(intAddr(key, f - F), c);
    }
  }
}

/// For tables without int fields: an intAddr that is never called.
struct NoIntFields {
  __device__ int *operator()(int, int) const { return nullptr; }
};

} // namespace distwar

#endif // DISTWAR_BLOCK_ACCUMULATE_CUH
