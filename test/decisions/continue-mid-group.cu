// A per-lane `continue` between a primitive's fields (a 3DGS fork skips the
// geometry gradients of nearly opaque pixels after adding the colour ones):
// the butterfly keeps one batch and one reduction per primitive iteration,
// as a human would write it. The continue becomes `live = false` as
// elsewhere; where the first part ends the key is captured and `reached`
// set, and the reduction after the last part takes every lane that reached
// it, so a lane that continued still adds the fields it set before. The
// fields after the continue are LaneSet slots (set by some lanes of a key).
// The serial variant reduces where the lanes that continued are gone: it
// keeps one group per part.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.serial.txt -- %shim > %t.serial.cu
// RUN: %FileCheck %s --check-prefix=SERIAL < %t.serial.txt
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}

// REPORT-DAG: group colourThenGeometry#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=4 slots=3 + 3
// SERIAL-DAG: group colourThenGeometry#0: batched (serial) key=id type=float sites=1 slots=3
// SERIAL-DAG: group colourThenGeometry#1: batched (serial) key=id type=float sites=3 slots=3
// CHECK-LABEL: __global__ void colourThenGeometry(
// CHECK: bool distwar_active0 = true;
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float,
// CHECK: 3 + 3,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 3 + 0>,
// CHECK: ::distwar::LaneSet<3 + 0,
// CHECK: 3 + 3>>
// CHECK: distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: if (g < 0.1f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: distwar_batch0.set(ch, &dcol[id * 3 + ch], g * ch);
// CHECK: distwar_key0 = id;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK: if (distwar_active0) {
// CHECK: if (g > 0.9f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK-NEXT: distwar_batch0.set(3 + 0, &dmean[id].x, 2.f * g);
// CHECK-NEXT: distwar_batch0.set(3 + 1, &dmean[id].y, 3.f * g);
// CHECK: distwar_batch0.set(3 + 2, &dopac[id], 4.f * g);
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK-NOT: distwar_batch1
// CHECK-LABEL: __global__ void threeParts(
__global__ void colourThenGeometry(float *dcol, float2 *dmean, float *dopac,
                                   const int *ids, const float *__restrict__ a,
                                   int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float g = a[j * 256 + threadIdx.x];
    if (g < 0.1f)
      continue;
    for (int ch = 0; ch < 3; ch++)
      atomicAdd(&dcol[id * 3 + ch], g * ch);
    if (g > 0.9f)
      continue;
    atomicAdd(&dmean[id].x, 2.f * g);
    atomicAdd(&dmean[id].y, 3.f * g);
    atomicAdd(&dopac[id], 4.f * g);
  }
}

// Two continues between three fields: still one batch. Only the first part
// captures the key; each part closes its guards and opens the next one's.
// REPORT-DAG: group threeParts#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=3 slots=3
// SERIAL-DAG: group threeParts#2: batched (serial)
// CHECK: ::distwar::Fields<float,
// CHECK: 3,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 1>,
// CHECK: ::distwar::LaneSet<1,
// CHECK: 3>>
// CHECK: distwar_batch0;
// CHECK: distwar_batch0.set(0, &ga[id], v);
// CHECK: distwar_key0 = id;
// CHECK: distwar_reached0 = true;
// CHECK: if (distwar_active0) {
// CHECK: distwar_batch0.set(1, &gb[id], 2.f * v);
// CHECK: }
// CHECK: }
// CHECK: if (distwar_active0) {
// CHECK: distwar_batch0.set(2, &gc[id], 3.f * v);
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK-LABEL: __global__ void readBetween(
__global__ void threeParts(float *ga, float *gb, float *gc, const int *ids,
                           const float *__restrict__ x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(&ga[id], v);
    if (v > 0.5f)
      continue;
    atomicAdd(&gb[id], 2.f * v);
    if (v < 0.25f)
      continue;
    atomicAdd(&gc[id], 3.f * v);
  }
}

// The continue's condition reads a buffer that may be a destination (x is
// not __restrict__): the first part's atomics must land before that read, so
// the parts keep their own reductions.
// REPORT-DAG: group readBetween#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=1
// REPORT-DAG: group readBetween#1: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=1
// CHECK: distwar_batch0.set(0, &ga[id], v);
// CHECK: distwar_key0 = id;
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_active0,
// CHECK: distwar_batch1.set(0, &gb[id], 2.f * v);
// CHECK: distwar_key1 = id;
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch1,
// CHECK: distwar_active0,
// CHECK-LABEL: __global__ void tooWide(
__global__ void readBetween(float *ga, float *gb, const int *ids,
                            const float *x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(&ga[id], v);
    if (x[j] > 0.5f)
      continue;
    atomicAdd(&gb[id], 2.f * v);
  }
}

// 20 + 16 fields do not fit one batch (32 slots): two reductions, as before.
// REPORT-DAG: group tooWide#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=20
// REPORT-DAG: group tooWide#1: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=16
__global__ void tooWide(float *ga, float *gb, const int *ids,
                        const float *__restrict__ x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    for (int c = 0; c < 20; c++)
      atomicAdd(&ga[id * 20 + c], v * c);
    if (v > 0.5f)
      continue;
    for (int c = 0; c < 16; c++)
      atomicAdd(&gb[id * 16 + c], v * c);
  }
}

// A field after the continue under a grid-uniform condition (an optional
// output): a LaneSet slot whose address repeats the condition.
// REPORT-DAG: group optionalAfter#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=2 slots=2
// CHECK-LABEL: __global__ void optionalAfter(
// CHECK: ::distwar::Fields<float,
// CHECK: 2,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 1>,
// CHECK: ::distwar::LaneSet<1,
// CHECK: 2>>
// CHECK: distwar_batch0;
// CHECK: if (distwar_slot == 1)
// CHECK: return (gopt) ? (&gopt[distwar_key0]) : nullptr;
__global__ void optionalAfter(float *ga, float *gopt, const int *ids,
                              const float *__restrict__ x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(&ga[id], v);
    if (v > 0.5f)
      continue;
    if (gopt) {
      atomicAdd(&gopt[id], 2.f * v);
    }
  }
}
