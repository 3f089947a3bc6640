// A name nvcc knows and Clang does not (CUDA 13's memory-order constants of
// __nv_atomic_load_n): the function that uses it, with its atomics, and the
// function that calls it are left as written (DW0060, the note at Clang's
// error or at the call); the rest of the file is rewritten, the run exits 0,
// and one warning names the first error. Running the tool again changes
// nothing.
// RUN: %distwar-rewrite --no-cuda-sdk %s -o %t.cu --report --report-file=%t.txt -- %shim 2> %t.err
// RUN: %FileCheck %s --check-prefix=WARN -DFILE=%s --implicit-check-not=error < %t.err
// RUN: %FileCheck %s --check-prefix=REPORT -DFILE=%s < %t.txt
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %s > %t.kept
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %t.cu > %t.out
// RUN: diff %t.kept %t.out
// RUN: %FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// The output is recognised as the tool's and left alone, as any other.
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim > %t.twice.cu 2> %t.twice.err
// RUN: diff %t.cu %t.twice.cu
// RUN: %not grep warning %t.twice.err

// WARN: distwar-rewrite: warning: [[FILE]]:[[#LOAD:@LINE+5]]:41: Clang cannot parse this: use of undeclared identifier '__NV_ATOMIC_RELAXED' (2 functions left as written, DW0060 parse-error-in-function)
// WARN-NOT: warning

// left as written: begin
__device__ bool visible(int *flags, int id) {
  return __nv_atomic_load_n(&flags[id], __NV_ATOMIC_RELAXED,
                            __NV_THREAD_SCOPE_DEVICE) == 0;
}

__global__ void addVisible(int *flags, float *g, float *h, const int *id,
                           const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!visible(flags, id[i]))
    return;
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}
// left as written: end

// CHECK: __global__ void addAll(
// CHECK: distwar_batch
__global__ void addAll(float *g, float *h, const int *id,
                       const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}

// REPORT: [[FILE]]: 4 atomic site(s), 1 group(s), rewritten
// REPORT-NEXT: [[FILE]]:[[#LOAD:@LINE-24]]:41: Clang error: use of undeclared identifier '__NV_ATOMIC_RELAXED'; 2 function(s) left as written (DW0060 parse-error-in-function)
// REPORT-NEXT: [[FILE]]:[[#LOAD+9]]:3: unchanged atomicAdd in addVisible type=float [DW0060 parse-error-in-function:
// REPORT-NEXT: [[FILE]]:[[#LOAD+10]]:3: unchanged atomicAdd in addVisible type=float [DW0060 parse-error-in-function:
// REPORT-NEXT: [[FILE]]:[[#LOAD+19]]:3: batched atomicAdd in addAll
// REPORT-NEXT: [[FILE]]:[[#LOAD+20]]:3: batched atomicAdd in addAll
