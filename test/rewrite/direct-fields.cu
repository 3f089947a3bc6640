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
  // CHECK: ::distwar::Fields<float, 4, ::distwar::AlwaysSet<0, 4>> distwar_batch0;
  // CHECK: distwar_batch0.set(0, &da[id], v);
  atomicAdd(&da[id], v);
  // CHECK: distwar_batch0.set(1, &(db[id]), 2 * v);
  atomicAdd(&(db[id]), 2 * v);
  // CHECK-NEXT: distwar_batch0.set(2, &dxy[id].x, v);
  atomicAdd(&dxy[id].x, v);
  // CHECK: distwar_batch0.set(3, &dxy[id].y, -v);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_direct_fields_cu,
  // CHECK: 0),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: float * {
  // CHECK: if (distwar_slot == 0)
  // CHECK: return &da[id];
  // CHECK: if (distwar_slot == 1)
  // CHECK: return &(db[id]);
  // CHECK: if (distwar_slot == 2)
  // CHECK: return &dxy[id].x;
  // CHECK: if (distwar_slot == 3)
  // CHECK: return &dxy[id].y;
  // CHECK: return nullptr;
  // CHECK: });
  atomicAdd(&dxy[id].y, -v);
}

__global__ void members(Grad *g, unsigned id, float v) {
  // CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
  // CHECK: distwar_batch0.set(0, &g[id].a, v);
  atomicAdd(&g[id].a, v);
  // CHECK: distwar_batch0.set(1, &g[id].b, v * v);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_direct_fields_cu,
  // CHECK: 1),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: float * {
  // CHECK: if (distwar_slot == 0)
  // CHECK: return &g[id].a;
  // CHECK: if (distwar_slot == 1)
  // CHECK: return &g[id].b;
  // CHECK: return nullptr;
  // CHECK: });
  atomicAdd(&g[id].b, v * v);
}

// REPORT: direct-fields.cu: 6 atomic site(s), 2 group(s), rewritten
// REPORT: direct-fields.cu:17:3: batched atomicAdd in direct buffer=da key=id slot=0 type=float group=direct#0
// REPORT: direct-fields.cu:41:3: batched atomicAdd in direct buffer=dxy key=id field=.y slot=3 type=float group=direct#0
// REPORT: direct-fields.cu:47:3: batched atomicAdd in members buffer=g key=id field=.a slot=0 type=float group=members#0
// REPORT: group direct#0: batched (serial) key=id type=float sites=4 slots=4
// REPORT: group members#0: batched (serial) key=id type=float sites=2 slots=2
