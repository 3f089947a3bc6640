// Cooperative groups: a block reduced in shared memory whose thread 0 adds,
// and keys made distinct by thread_rank(), are left alone.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s --report --report-file=%t.txt > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: diff %s %t.cu

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// CHECK-DAG: leave-alone-cg.cu:[[@LINE+15]]:7: unchanged atomicAdd in blockReduced {{.*}}[DW0035 already-reduced
__global__ void blockReduced(float *gx, const int *ids, const float *vx,
                             int n) {
  auto block = cg::this_thread_block();
  auto tid = block.thread_rank();
  __shared__ float sx[256];
  for (int j = 0; j < n; j++) {
    sx[tid] = vx[j * 256 + tid];
    block.sync();
    for (int s = 128; s > 0; s /= 2) {
      if (tid < s)
        sx[tid] += sx[tid + s];
      block.sync();
    }
    if (tid == 0)
      atomicAdd(&gx[ids[j]], sx[0]);
    block.sync();
  }
}

// CHECK-DAG: group threadRank@{{[0-9]+}}: unchanged key=dest type=float sites=2 [DW0027 distinct-keys
__global__ void threadRank(float *gx, float *gy, const float *__restrict__ vx,
                           const float *__restrict__ vy, int base) {
  auto block = cg::this_thread_block();
  auto tid = block.thread_rank();
  const int dest = base * 256 + tid;
  atomicAdd(&gx[dest], vx[tid]);
  atomicAdd(&gy[dest], vy[tid]);
}
