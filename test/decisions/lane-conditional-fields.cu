// Fields added under an `if` whose condition differs across lanes join their
// primitive's group as LaneSet slots, as a human would batch them: one
// reduction per primitive iteration. The condition is not repeated at the
// reduction (it may read what only the lane knows); the runtime gives every
// lane of a key the union of their presence bits, so the issuing lane adds a
// slot's sum whether or not it took that branch itself.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}

// Two formulas for one primitive (a 2D Gaussian's ray-splat and its
// fallback): each branch adds other fields, the opacity after the if.
// REPORT-DAG: group twoBranches#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=5 slots=5
// CHECK-LABEL: __global__ void twoBranches(
// CHECK: ::distwar::Fields<float,
// CHECK: 5,
// CHECK: ::distwar::LaneSet<0,
// CHECK: 4>,
// CHECK: ::distwar::AlwaysSet<4,
// CHECK: 5>>
// CHECK: distwar_batch0;
// CHECK: if (r[j * 32 + threadIdx.x % 32] <= 0.5f) {
// CHECK-NEXT: distwar_batch0.set(0, &dT[id * 9 + 0], g[j]);
// CHECK: } else {
// CHECK-NEXT: distwar_batch0.set(2, &dmean[id].x, g[j]);
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: if (distwar_slot == 2)
// CHECK: return &dmean[distwar_key0].x;
__global__ void twoBranches(float *dT, float2 *dmean, float *dopac,
                            const int *ids, const float *__restrict__ g,
                            const float *__restrict__ r, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    if (r[j * 32 + threadIdx.x % 32] <= 0.5f) {
      atomicAdd(&dT[id * 9 + 0], g[j]);
      atomicAdd(&dT[id * 9 + 1], 2.f * g[j]);
    } else {
      atomicAdd(&dmean[id].x, g[j]);
      atomicAdd(&dmean[id].y, 3.f * g[j]);
    }
    atomicAdd(&dopac[id], 4.f * g[j]);
  }
}

// Both branches add to the same fields: each field takes one slot, set by
// every lane (both-arms.cu).
// REPORT-DAG: group bothArms#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=4 slots=2
// CHECK-LABEL: __global__ void bothArms(
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
__global__ void bothArms(float *ga, float *gb, const float *__restrict__ x,
                         int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a * a);
    } else {
      atomicAdd(&ga[i], -a);
      atomicAdd(&gb[i], 0.5f * a);
    }
  }
}

// Nested lane-dependent ifs under a grid-uniform one: the uniform condition
// is repeated for the address, the lane-dependent ones are not.
// REPORT-DAG: group nested#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=3 slots=3
// CHECK-LABEL: __global__ void nested(
// CHECK: ::distwar::Fields<float,
// CHECK: 3,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 1>,
// CHECK: ::distwar::LaneSet<1,
// CHECK: 3>>
// CHECK: distwar_batch0;
// CHECK: if (distwar_slot == 1)
// CHECK: return (gopt) ? (&gopt[distwar_key0 * 2]) : nullptr;
// CHECK: if (distwar_slot == 2)
// CHECK: return &gopt[distwar_key0 * 2 + 1];
__global__ void nested(float *ga, float *gopt, const int *ids,
                       const float *__restrict__ x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float a = x[j * 32 + threadIdx.x % 32];
    atomicAdd(&ga[id], a);
    if (gopt) {
      if (a > 0.25f) {
        if (a < 0.75f)
          atomicAdd(&gopt[id * 2], a);
      }
    }
    if (a > 0.5f)
      atomicAdd(&gopt[id * 2 + 1], a);
  }
}

// An if that declares its condition variable: the branch cannot be told
// apart from the slot alone, the site stays a plain atomic.
// REPORT-DAG: group declares#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=1
// REPORT-DAG: unchanged atomicAdd in declares buffer=gb key=id type=float [DW0020 varying-condition
__global__ void declares(float *ga, float *gb, const int *ids,
                         const float *__restrict__ x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    atomicAdd(&ga[id], x[j]);
    if (const float w = x[j] * threadIdx.x)
      atomicAdd(&gb[id], w);
  }
}
