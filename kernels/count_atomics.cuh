// Force-included (-include) into an instrumented copy of the plain backward
// kernels: every atomicAdd also records, once per warp-level call, how many
// lanes call and how many distinct addresses they target. The kernel sources
// stay untouched. Each translation unit registers a reader of its table.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "count_registry.h"

static __device__ unsigned long long
    dwk_count_table[dwk_count::kLanes * dwk_count::kLanes];

static void dwk_count_read(dwk_count::Histogram &h, bool reset) {
  unsigned long long t[dwk_count::kLanes * dwk_count::kLanes];
  if (cudaMemcpyFromSymbol(t, dwk_count_table, sizeof(t)) != cudaSuccess)
    return;
  for (int a = 0; a < dwk_count::kLanes; ++a)
    for (int d = 0; d < dwk_count::kLanes; ++d)
      h.calls[a][d] += t[a * dwk_count::kLanes + d];
  if (reset) {
    for (auto &v : t)
      v = 0;
    cudaMemcpyToSymbol(dwk_count_table, t, sizeof(t));
  }
}

static const bool dwk_count_registered =
    (dwk_count::readers().push_back(&dwk_count_read), true);

template <typename T>
static __device__ __forceinline__ T dwk_counted_atomic_add(T *addr, T value) {
  const unsigned mask = __activemask();
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  const unsigned peers =
      __match_any_sync(mask, reinterpret_cast<unsigned long long>(addr));
  const bool first_of_key = (__ffs(peers) - 1) == int(lane);
  const unsigned keys = __ballot_sync(mask, first_of_key);
  if (int(lane) == __ffs(mask) - 1)
    atomicAdd(&dwk_count_table[__popc(mask) * dwk_count::kLanes + __popc(keys)],
              1ull);
  return atomicAdd(addr, value);
}

#define atomicAdd(addr, value) dwk_counted_atomic_add((addr), (value))
