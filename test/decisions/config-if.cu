// A configuration #if between the sites (whole blocks of whole statements)
// does not keep a group plain: the batch and the reduction lie outside the
// block and a site inside it is tracked, so the output also compiles, and
// adds nothing for it, where the block is off. An #if that cuts the group's
// first or last statement, or whose #else is outside the group, still does.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check -DRENDER_EXTRA=0 %t.cu %}

#ifndef RENDER_EXTRA
#define RENDER_EXTRA 1
#endif

// REPORT-DAG: group extra#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=3 slots=3
// CHECK: ::distwar::Fields<float,
// CHECK: 3,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 1>,
// CHECK: ::distwar::AlwaysSet<2,
// CHECK: 3>>
// CHECK: distwar_batch0;
// CHECK: #if RENDER_EXTRA
// CHECK: distwar_batch0.set(1, &dnormal[id], 2.f * g[j]);
// CHECK-NEXT: #endif
__global__ void extra(float *dcol, float *dnormal, float *dopac,
                      const int *ids, const float *__restrict__ g, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    atomicAdd(&dcol[id], g[j]);
#if RENDER_EXTRA
    atomicAdd(&dnormal[id], 2.f * g[j]);
#endif
    atomicAdd(&dopac[id], 3.f * g[j]);
  }
}

// The group's last statement is inside the block.
// REPORT-DAG: group lastInside@{{[0-9]+}}: unchanged {{.*}}[DW0015 preprocessor-conditional
__global__ void lastInside(float *dcol, float *dopac, const int *ids,
                           const float *__restrict__ g, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    atomicAdd(&dcol[id], g[j]);
#if RENDER_EXTRA
    atomicAdd(&dopac[id], 3.f * g[j]);
#endif
  }
}
