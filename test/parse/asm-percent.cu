// PTX special registers written with one `%` in inline asm (`%lanemask_lt`,
// `%laneid`): nvcc passes them through, Clang takes `%l` for an operand
// modifier. The parse reads `%%`; the output keeps the user's asm.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK: asm("mov.u32 %0, %lanemask_lt;" : "=r"(r));
__device__ unsigned laneMaskLt() { unsigned r; asm("mov.u32 %0, %lanemask_lt;" : "=r"(r)); return r; }
// CHECK: asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
__device__ unsigned laneId() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
// Strings joined: each is read on its own.
// CHECK: asm volatile("mov.u32 %0, %laneid;\n\t"
// CHECK-NEXT: "add.u32 %0, %0, %1;" : "=r"(r) : "r"(a));
__device__ unsigned plusLane(unsigned a) {
  unsigned r;
  asm volatile("mov.u32 %0, %laneid;\n\t"
               "add.u32 %0, %0, %1;" : "=r"(r) : "r"(a));
  return r;
}

__global__ void backward(float *g, float *h, const int *id, const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lanes = laneMaskLt() + laneId() + plusLane(1);
  atomicAdd(&g[id[i]], v[i] * lanes);
  atomicAdd(&h[id[i]], v[i]);
}

// REPORT: 2 atomic site(s), 1 group(s), rewritten
