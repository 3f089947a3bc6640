// Direct fields, vector members and named struct members keyed by one id.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

struct Grad { float a, b; };

// CHECK: #include <distwar/runtime.cuh> // distwar-rewrite: batched gradient reductions
// CHECK-NEXT: DISTWAR_SITES(distwar_sites_direct_fields_cu, "direct#0", "members#0");
// CHECK-NEXT: #line 1 "{{.*}}direct-fields.cu"
__global__ void direct(float *da, float *db, float2 *dxy, const int *ids,
                       float v) {
  int id = ids[threadIdx.x];
  // CHECK: ::distwar::Fields<float, 4, ::distwar::AlwaysSet<0, 4>> distwar_batch0; distwar_batch0.set(0, &da[id], v);
  atomicAdd(&da[id], v);
  // CHECK-NEXT: distwar_batch0.set(1, &(db[id]), 2 * v);
  atomicAdd(&(db[id]), 2 * v);
  // CHECK-NEXT: distwar_batch0.set(2, &dxy[id].x, v);
  atomicAdd(&dxy[id].x, v);
  // CHECK-NEXT: distwar_batch0.set(3, &dxy[id].y, -v); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_direct_fields_cu, 0), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &da[id]; if (distwar_slot == 1) return &(db[id]); if (distwar_slot == 2) return &dxy[id].x; if (distwar_slot == 3) return &dxy[id].y; return nullptr; });
  atomicAdd(&dxy[id].y, -v);
}

__global__ void members(Grad *g, unsigned id, float v) {
  // CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; distwar_batch0.set(0, &g[id].a, v);
  atomicAdd(&g[id].a, v);
  // CHECK-NEXT: distwar_batch0.set(1, &g[id].b, v * v); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_direct_fields_cu, 1), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &g[id].a; if (distwar_slot == 1) return &g[id].b; return nullptr; });
  atomicAdd(&g[id].b, v * v);
}

// REPORT: direct-fields.cu: 6 atomic site(s), 2 group(s), rewritten
// REPORT: direct-fields.cu:16:3: batched atomicAdd in direct buffer=da key=id slot=0 type=float group=direct#0
// REPORT: direct-fields.cu:22:3: batched atomicAdd in direct buffer=dxy key=id field=.y slot=3 type=float group=direct#0
// REPORT: direct-fields.cu:27:3: batched atomicAdd in members buffer=g key=id field=.a slot=0 type=float group=members#0
// REPORT: group direct#0: batched (serial) key=id type=float sites=4 slots=4
// REPORT: group members#0: batched (serial) key=id type=float sites=2 slots=2
