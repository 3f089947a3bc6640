// Groups under ifs that cannot get an active flag without a risk of changing
// meaning: no flag, the reduction stays where the serial variant puts it (the
// butterfly output is exactly the serial output: conditions, branches and
// statements unchanged), and the report names the reason.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: %distwar-rewrite --no-cuda-sdk --variant=butterfly %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: diff %t.serial.cu %t.cu
// RUN: %distwar-rewrite --no-cuda-sdk %s -- %shim | diff %t.serial.cu -
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --variant=butterfly %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__device__ int probes;
__device__ bool probe(float a) { return atomicAdd(&probes, 1) < 100 && a > 0.f; }

// A condition on the path with an assignment.
__global__ void assignCond(float *ga, float *gb, const float *x, int n) {
  int seen = 0;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      if ((seen += 1) > 2) {
        atomicAdd(&ga[i], a);
        atomicAdd(&gb[i], a);
      }
    }
  }
}
// REPORT-DAG: group assignCond#0: batched (serial; not butterfly: DW0045 condition-side-effects)

// A condition that calls a function writing memory, in an else-if chain.
__global__ void callCond(float *ga, float *gb, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 1.f) {
      ga[n + i] = a;
    } else if (probe(a)) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
    }
  }
}
// REPORT-DAG: group callCond#0: batched (serial; not butterfly: DW0045 condition-side-effects)
// CHECK-LABEL: __global__ void callCond(
// CHECK: } else if (probe(a)) {
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: distwar_batch0.set(0, &ga[i], a);
// CHECK: distwar_batch0.set(1, &gb[i], a);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: i,

// An if with an init statement.
__global__ void initStmt(float *ga, float *gb, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    if (const float a = x[threadIdx.x * n + i]; a > 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
    }
  }
}
// REPORT-DAG: group initStmt#0: batched (serial; not butterfly: DW0046 if-form)

// A condition variable, below an ordinary if.
__global__ void condVar(float *ga, float *gb, const int *mask, int n,
                        float v) {
  for (int i = 0; i < n; i++) {
    if (v > threadIdx.x) {
      if (const int m = mask[threadIdx.x * n + i]) {
        atomicAdd(&ga[i], v * m);
        atomicAdd(&gb[i], v);
      }
    }
  }
}
// REPORT-DAG: group condVar#0: batched (serial; not butterfly: DW0046 if-form)

// if constexpr: the batch, declared at the loop body's start, and the
// addresses rebuilt after the if would be outside the discarded branch, so
// they would have to be valid in every instantiation.
template <bool Second>
__global__ void constexprIf(float *ga, float *gb, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if constexpr (Second) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
    }
  }
}
template __global__ void constexprIf<true>(float *, float *, const float *,
                                           int);
template __global__ void constexprIf<false>(float *, float *, const float *,
                                            int);
// REPORT-DAG: group constexprIf#0: batched (serial; not butterfly: DW0046 if-form)

// A continue in the other branch of the if that holds the group.
__global__ void continueInElse(float *ga, float *gb, float *out,
                               const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
    } else
      continue;
    out[i] = a;
  }
}
// REPORT-DAG: group continueInElse#0: batched (serial; not butterfly: DW0023 unconvertible-continue)

// After the inner if, the enclosing block reads a destination buffer: the
// atomics cannot move past it.
__global__ void readAfter(float *ga, float *gb, float *out, const float *x,
                          int n) {
  float s = 0.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      if (a < 1.f) {
        atomicAdd(&ga[i], a);
        atomicAdd(&gb[i], a);
      }
      s += ga[i];
    }
  }
  out[threadIdx.x] = s;
}
// REPORT-DAG: group readAfter#0: batched (serial; not butterfly: DW0010 buffer-accessed-between)

// A store that may alias a destination after the group, in its own block.
__global__ void storeAfter(float *ga, float *gb, float *out, const float *x,
                           int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
      out[i] = a;
    } else {
      out[i] = 0.f;
    }
  }
}
// REPORT-DAG: group storeAfter#0: batched (serial; not butterfly: DW0012 store-between)

// A switch between the loop body and the group.
__global__ void inSwitch(float *ga, float *gb, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    switch (threadIdx.x & 1) {
    case 0: {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
      break;
    }
    default:
      break;
    }
  }
}
// REPORT-DAG: group inSwitch#0: batched (serial; not butterfly: DW0031 not-in-loop)

// The holder's last branch ends inside a macro expansion: no place for the
// reduction in the file.
#define RESET(v) v = 0.f
__global__ void macroEnd(float *ga, float *gb, const float *x, int n) {
  float s = 1.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a < 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
    } else
      RESET(s);
  }
  ga[0] = s;
}
// REPORT-DAG: group macroEnd#0: batched (serial; not butterfly: DW0004 macro-expansion)
