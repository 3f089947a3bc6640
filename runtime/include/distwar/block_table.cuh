//===- distwar/block_table.cuh - What the block-level tables share --------===//
//
// The pieces that both block-level accumulators use: the hand-written
// BlockTable (distwar/block_accumulate.cuh) and the block strategy of
// generated code (distwar/block_reduce.cuh). A table is open addressing
// with linear probing over an array of int keys in shared memory (kEmptyKey
// marks a free entry); an entry is claimed with atomicCAS, so claims by
// different warps agree without a barrier. Before a lane touches the table,
// the lanes of its warp that share a key sum their values in registers
// (sumToLeader), so that one lane per key enters the table: on sm_90 a float
// atomicAdd to shared memory is a compare-and-swap loop, one trip per lane
// that adds to the same word in one instruction.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_BLOCK_TABLE_CUH
#define DISTWAR_BLOCK_TABLE_CUH

#include "distwar/lane_math.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "distwar block accumulation needs sm_70 or newer (__match_any_sync)"
#endif

namespace distwar {

/// Marks a free entry; keys in a table are >= 0.
constexpr int kEmptyKey = -1;
/// What a claim returns when the key found no entry.
constexpr int kNoSlot = -1;

namespace detail {

__device__ __forceinline__ int threadRankInBlock() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ int threadsInBlock() {
  return blockDim.x * blockDim.y * blockDim.z;
}

__host__ __device__ constexpr int log2Exact(int n) {
  return n <= 1 ? 0 : 1 + log2Exact(n / 2);
}

/// Fibonacci hashing: the high bits of key * 2^32/phi. The low bits of a
/// plain product would send texel rows (keys a power of two apart) to the
/// same slot.
template <int Capacity> __device__ __forceinline__ unsigned hashSlot(int key) {
  constexpr int kBits = log2Exact(Capacity);
  if constexpr (kBits == 0)
    return 0;
  else
    return (static_cast<unsigned>(key) * 2654435769u) >> (32 - kBits);
}

/// Probes before a key overflows to global atomics: linear probing at a
/// load factor below one half needs about 1.5 on average.
template <int Capacity> __host__ __device__ constexpr int maxProbes() {
  return Capacity < 32 ? Capacity : 32;
}

/// The entry of `key` (>= 0) in `keys`, claimed if new, or kNoSlot when
/// maxProbes probes found neither it nor a free entry. Any lane, any time
/// between the table's clear and its flush. One atomicCAS per probe: the key
/// words are only ever accessed atomically until the flush, so concurrent
/// claims of one entry agree.
template <int Capacity>
__device__ __forceinline__ int claimEntry(int (&keys)[Capacity], int key) {
  static_assert(Capacity > 0 && (Capacity & (Capacity - 1)) == 0,
                "distwar: a block table's capacity is a power of two");
  unsigned slot = hashSlot<Capacity>(key);
  for (int probe = 0; probe < maxProbes<Capacity>(); ++probe) {
    const int old = atomicCAS(&keys[slot], kEmptyKey, key);
    if (old == kEmptyKey || old == key)
      return static_cast<int>(slot);
    slot = (slot + 1) & (Capacity - 1);
  }
  return kNoSlot;
}

/// One step of sumToLeader for one array: adds lane `source`'s values where
/// `take`.
template <typename T, int N>
__device__ __forceinline__ void addFromLane(T (&v)[N], unsigned mask,
                                            int source, bool take) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const T x = __shfl_sync(mask, v[i], source);
    v[i] += take ? x : T(0);
  }
}

/// Sums each array in `v` over each key group (`peers`, from match-any over
/// `mask`) into the group's lowest lane: a shift-down tree in which rank r
/// adds rank r + offset (forEachTreeStep), one source for every array. The
/// steps end when no group has a lane left to add (at once when every group
/// is one lane).
template <typename... Arrays>
__device__ __forceinline__ void sumToLeader(unsigned mask, unsigned peers,
                                            Arrays &...v) {
  const int groupSize = popCount(peers);
  const int rank = popCount(peers & laneMaskLt());
  forEachTreeStep(mask, peers, groupSize, [&](int offset, int source) {
    // The walk wraps around the group; past its last rank nothing is taken.
    (addFromLane(v, mask, source, rank + offset < groupSize), ...);
  });
}

} // namespace detail
} // namespace distwar

#endif // DISTWAR_BLOCK_TABLE_CUH
