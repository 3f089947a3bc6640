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
    // CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
    // The int counter of `a` below reuses this group's key match.
    // CHECK: ::distwar::KeptPeers distwar_peers0;
    // CHECK: distwar_batch0.set(0, &dpos[a * 2 + 0], w);
    atomicAdd(&dpos[a * 2 + 0], w);
    // CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch1;
    // CHECK: distwar_batch1.set(0, &dpos[b * 2 + 0], -w);
    atomicAdd(&dpos[b * 2 + 0], -w);
    // CHECK: distwar_batch0.set(1, &dpos[a * 2 + 1], w);
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch0,
    // CHECK: a,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_several_groups_cu,
    // CHECK: 0),
    // CHECK: [&](int distwar_slot) ->
    // CHECK: float * {
    // CHECK: if (distwar_slot == 0)
    // CHECK: return &dpos[a * 2 + 0];
    // CHECK: if (distwar_slot == 1)
    // CHECK: return &dpos[a * 2 + 1];
    // CHECK: return nullptr;
    // CHECK: },
    // CHECK: ::distwar::keepPeers(distwar_peers0));
    atomicAdd(&dpos[a * 2 + 1], w);
    // CHECK: distwar_batch1.set(1, &dpos[b * 2 + 1], -w);
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch1,
    // CHECK: b,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_several_groups_cu,
    // CHECK: 1),
    // CHECK: [&](int distwar_slot) ->
    // CHECK: float * {
    // CHECK: if (distwar_slot == 0)
    // CHECK: return &dpos[b * 2 + 0];
    // CHECK: if (distwar_slot == 1)
    // CHECK: return &dpos[b * 2 + 1];
    // CHECK: return nullptr;
    // CHECK: });
    atomicAdd(&dpos[b * 2 + 1], -w);
    // CHECK: ::distwar::Fields<int, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch2;
    // CHECK: distwar_batch2.set(0, &count[a], 1);
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch2,
    // CHECK: a,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_several_groups_cu,
    // CHECK: 2),
    // CHECK: [&](int distwar_slot) ->
    // CHECK: int * {
    // CHECK: if (distwar_slot == 0)
    // CHECK: return &count[a];
    // CHECK: return nullptr;
    // CHECK: },
    // CHECK: ::distwar::reusePeers(distwar_peers0));
    atomicAdd(&count[a], 1);
  }
}

// REPORT: group pairs#0: batched (serial) key=a type=float sites=2 slots=2
// REPORT: group pairs#1: batched (serial) key=b type=float sites=2 slots=2
// REPORT: group pairs#2: batched (serial) key=a type=int sites=1 slots=1 match-of=pairs#0
