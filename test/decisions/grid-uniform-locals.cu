// A local computed once from grid-uniform values (`const int c_num =
// min(CNum, C);` of a template constant and a kernel parameter) is the same
// in every thread: a field under `if (c_num > 3)` is a conditional field
// whose test the reduction repeats (Tracked), not a LaneSet one; a local
// that changes is not.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// REPORT-DAG: group channels#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=2 slots=2
// REPORT-DAG: group changes#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=2 slots=2
// CHECK-LABEL: __global__ void channels(
// CHECK: ::distwar::Batch<float, 2, ::distwar::AlwaysSet<0, 1>> distwar_batch0;
// CHECK-LABEL: __global__ void changes(
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 1>,{{[[:space:]]*}}::distwar::LaneSet<1, 2>>
template <int CNum>
__global__ void channels(float *ga, float *gb, const int *ids,
                         const float *__restrict__ x, int n, int C) {
  const int c_num = min(CNum, C);
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(&ga[id], v);
    if (c_num > 3)
      atomicAdd(&gb[id], 2.f * v);
  }
}
template __global__ void channels<4>(float *, float *, const int *,
                                     const float *, int, int);

__global__ void changes(float *ga, float *gb, const int *ids,
                        const float *__restrict__ x, int n, int C) {
  int c_num = min(4, C);
  if (threadIdx.x == 0)
    c_num = 1;
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(&ga[id], v);
    if (c_num > 3)
      atomicAdd(&gb[id], 2.f * v);
  }
}
