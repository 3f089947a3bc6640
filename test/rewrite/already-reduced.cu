// Code that already reduces across the warp is recognised and left alone,
// with a reason per site and group: shuffle loops feeding one atomic,
// cooperative-groups reduce with lane-0 atomics, match-any grouping with
// shared memory behind macros. Parsed with the CUDA SDK (cooperative groups).
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s --report --report-file=%t.txt > %t.cu
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// CHECK: already-reduced.cu: 13 atomic site(s), 0 group(s), unchanged

// A shuffle-down loop, then lane 0 adds.
// CHECK: unchanged atomicAdd in shuffled {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in shuffled {{.*}}DW0035 already-reduced
__global__ void shuffled(float *grad, const int *ids, const float *v) {
  const int id = ids[blockIdx.x];
  float sum = v[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&grad[id * 2], sum);
    atomicAdd(&grad[id * 2 + 1], 2.f * sum);
  }
}

// A helper hides the xor butterfly.
__device__ float warpSum(float x) {
  for (int mask = 16; mask > 0; mask >>= 1)
    x += __shfl_xor_sync(0xffffffffu, x, mask);
  return x;
}
// CHECK: unchanged atomicAdd in viaHelper {{.*}}DW0035 already-reduced
__global__ void viaHelper(float *grad, const int *ids, const float *v) {
  const int id = ids[blockIdx.x];
  float s = warpSum(v[threadIdx.x]);
  atomicAdd(&grad[id], s);
}

// Cooperative-groups reduce per field, a warp-wide "any valid" test, lane 0
// issues the atomics.
// CHECK: unchanged atomicAdd in cgReduce {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in cgReduce {{.*}}DW0035 already-reduced
__global__ void cgReduce(float2 *grad, const int *ids, const float2 *v,
                         const bool *valid_in) {
  cg::thread_block_tile<32> tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  const int id = ids[blockIdx.x];
  const bool valid = valid_in[threadIdx.x];
  if (!tile.any(valid))
    return;
  const float2 g = valid ? v[threadIdx.x] : make_float2(0.f, 0.f);
  const float gx = cg::reduce(tile, g.x, cg::plus<float>());
  const float gy = cg::reduce(tile, g.y, cg::plus<float>());
  if (tile.thread_rank() == 0) {
    atomicAdd(&grad[id].x, gx);
    atomicAdd(&grad[id].y, gy);
  }
}

// Match-any grouping with shared memory, written through macros: lanes with
// the same texel sum in shared memory, the group leader adds.
#define GROUP_BEGIN(key)                                                       \
  const unsigned peers = __match_any_sync(__activemask(), key);                \
  const int leader = __ffs(peers) - 1;                                         \
  const int lane = threadIdx.x & 31
#define IS_LEADER() (lane == leader)
// CHECK: unchanged atomicAdd in matched buffer=sums {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in matched {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in matched {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in matched {{.*}}DW0035 already-reduced
__global__ void matched(float *tex, const int *texel, const float *v) {
  __shared__ float sums[256];
  const int t = texel[threadIdx.x];
  GROUP_BEGIN(t);
  sums[threadIdx.x] = 0.f;
  __syncwarp(peers);
  atomicAdd(&sums[(threadIdx.x & ~31) + leader], v[threadIdx.x]);
  __syncwarp(peers);
  if (IS_LEADER()) {
    atomicAdd(&tex[t * 3 + 0], sums[threadIdx.x]);
    atomicAdd(&tex[t * 3 + 1], sums[threadIdx.x]);
    atomicAdd(&tex[t * 3 + 2], sums[threadIdx.x]);
  }
}

// The whole coalesced add behind one macro: every lane adds into its group's
// shared slot, the leader adds the slot's sum. Both adds are the hand
// reduction, though the macro expands to more than atomicAdd statements.
#define SLOT_ADD(ptr, value)                                                   \
  do {                                                                         \
    if (isLeader)                                                              \
      *slot = 0.f;                                                             \
    atomicAdd(slot, (value));                                                  \
    if (isLeader)                                                              \
      atomicAdd((ptr), *slot);                                                 \
  } while (0)
// CHECK: unchanged atomicAdd in slotMacro buffer=slot {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in slotMacro {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in slotMacro buffer=slot {{.*}}DW0035 already-reduced
// CHECK: unchanged atomicAdd in slotMacro {{.*}}DW0035 already-reduced
__global__ void slotMacro(float *grad, const int *prim, const float *v) {
  __shared__ float slots[256];
  const int p = prim[threadIdx.x];
  const unsigned peers = __match_any_sync(__activemask(), p);
  const int leader = __ffs(peers) - 1;
  const bool isLeader = (threadIdx.x & 31) == leader;
  float *slot = &slots[(threadIdx.x & ~31) + leader];
  SLOT_ADD(grad + 2 * p, v[threadIdx.x]);
  SLOT_ADD(grad + 2 * p + 1, 2.f * v[threadIdx.x]);
}
