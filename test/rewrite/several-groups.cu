// Several groups in one loop, mixed keys and mixed element types.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void pairs(const int2 *edges, int n, float *dpos, int *count,
                      float w) {
  for (int e = 0; e < n; ++e) {
    const int a = edges[e].x;
    const int b = edges[e].y;
    // CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; distwar_batch0.set(0, &dpos[a * 2 + 0], w);
    atomicAdd(&dpos[a * 2 + 0], w);
    // CHECK-NEXT: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch1; distwar_batch1.set(0, &dpos[b * 2 + 0], -w);
    atomicAdd(&dpos[b * 2 + 0], -w);
    // CHECK-NEXT: distwar_batch0.set(1, &dpos[a * 2 + 1], w); ::distwar::reduceSerial(distwar_batch0, a, DISTWAR_SITE_THRESHOLD(distwar_sites_several_groups_cu, 0), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &dpos[a * 2 + 0]; if (distwar_slot == 1) return &dpos[a * 2 + 1]; return nullptr; });
    atomicAdd(&dpos[a * 2 + 1], w);
    // CHECK-NEXT: distwar_batch1.set(1, &dpos[b * 2 + 1], -w); ::distwar::reduceSerial(distwar_batch1, b, DISTWAR_SITE_THRESHOLD(distwar_sites_several_groups_cu, 1), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &dpos[b * 2 + 0]; if (distwar_slot == 1) return &dpos[b * 2 + 1]; return nullptr; });
    atomicAdd(&dpos[b * 2 + 1], -w);
    // CHECK-NEXT: ::distwar::Fields<int, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch2; distwar_batch2.set(0, &count[a], 1); ::distwar::reduceSerial(distwar_batch2, a, DISTWAR_SITE_THRESHOLD(distwar_sites_several_groups_cu, 2), [&](int distwar_slot) -> int * { if (distwar_slot == 0) return &count[a]; return nullptr; });
    atomicAdd(&count[a], 1);
  }
}

// REPORT: group pairs#0: batched (serial) key=a type=float sites=2 slots=2
// REPORT: group pairs#1: batched (serial) key=b type=float sites=2 slots=2
// REPORT: group pairs#2: batched (serial) key=a type=int sites=1 slots=1
