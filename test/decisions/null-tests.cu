// An optional output tested against null in any spelling (`if (p)`,
// `p != nullptr`, `p != NULL`, `nullptr != p`) reads no memory: the fields
// under the tests join one group as conditional fields, as with `if (p)`.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

#define NULL 0

// CHECK-DAG: group spellings#0: batched (serial; not butterfly: DW0026 key-varies) key=r type=float sites=4 slots=4
__global__ void spellings(const int *__restrict__ rows,
                          const float *__restrict__ g, float *ga, float *gb,
                          float *gc, float *gd, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int r = rows[i];
  float v = g[i];
  if (ga != nullptr)
    atomicAdd(&ga[r], v);
  if (gb != NULL)
    atomicAdd(&gb[r], 2.f * v);
  if (nullptr != gc)
    atomicAdd(&gc[r], 3.f * v);
  if (gd)
    atomicAdd(&gd[r], 4.f * v);
}

// A comparison of a destination with another pointer reads only the
// pointers, but whether the two alias is not a null test: the group stays
// plain.
// CHECK-DAG: group compared@{{[0-9]+}}: unchanged key=r type=float sites=2 [DW0010 buffer-accessed-between
__global__ void compared(const int *__restrict__ rows,
                         const float *__restrict__ g, float *ga, float *gb,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int r = rows[i];
  atomicAdd(&ga[r], g[i]);
  if (gb != ga)
    atomicAdd(&gb[r], g[i]);
}
