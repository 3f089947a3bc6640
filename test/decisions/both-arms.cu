// A field added in both arms of one lane-dependent `if`, at the same
// address, takes one slot: every lane sets it once, whichever arm it takes,
// so it is always set (AlwaysSet) as a field outside the `if` would be.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}

// REPORT-DAG: group shared#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=i type=float sites=4 slots=3
// REPORT-DAG: batched atomicAdd in shared buffer=g key=i field=[*3+0] slot=0 type=float group=shared#0
// CHECK-LABEL: __global__ void shared(
// CHECK: ::distwar::Fields<float,
// CHECK: 3,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 1>,
// CHECK: ::distwar::LaneSet<1,
// CHECK: 2>,
// CHECK: ::distwar::AlwaysSet<2,
// CHECK: 3>>
// CHECK: distwar_batch0;
// CHECK: distwar_batch0.set(0, &g[i * 3 + 0], v);
// CHECK: distwar_batch0.set(1, &g[i * 3 + 1], v);
// CHECK: } else {
// CHECK-NEXT: distwar_batch0.set(0, &g[i * 3 + 0], 2.f * v);
// CHECK: distwar_batch0.set(2, &g[i * 3 + 2], v);
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
__global__ void shared(float *g, const int *ids, const float *__restrict__ x,
                       int n) {
  for (int j = 0; j < n; j++) {
    const int i = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    if (v > 0.5f) {
      atomicAdd(&g[i * 3 + 0], v);
      atomicAdd(&g[i * 3 + 1], v);
    } else {
      atomicAdd(&g[i * 3 + 0], 2.f * v);
    }
    atomicAdd(&g[i * 3 + 2], v);
  }
}

// Two adds to one address in the same arm would set a slot twice: the
// second keeps its own slot. Under a second lane-dependent `if` in the
// group, the shared slot is set only by some lanes (LaneSet).
// REPORT-DAG: group twice#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=i type=float sites=3 slots=2
// REPORT-DAG: group nestedIf#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=i type=float sites=3 slots=2
// CHECK-LABEL: __global__ void twice(
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 1>,{{[[:space:]]*}}::distwar::LaneSet<1, 2>>
// CHECK-LABEL: __global__ void nestedIf(
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 1>,{{[[:space:]]*}}::distwar::LaneSet<1, 2>>
__global__ void twice(float *g, const int *ids, const float *__restrict__ x,
                      int n) {
  for (int j = 0; j < n; j++) {
    const int i = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    if (v > 0.5f) {
      atomicAdd(&g[i], v);
    } else {
      atomicAdd(&g[i], 2.f * v);
      atomicAdd(&g[i], 3.f * v);
    }
  }
}

__global__ void nestedIf(float *g, const int *ids, const float *__restrict__ x,
                         int n) {
  for (int j = 0; j < n; j++) {
    const int i = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(&g[i * 2 + 1], v);
    if (v > 0.25f) {
      if (v > 0.5f)
        atomicAdd(&g[i * 2], v);
      else
        atomicAdd(&g[i * 2], 2.f * v);
    }
  }
}
