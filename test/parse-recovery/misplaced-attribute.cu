// An attribute nvcc ignores with a warning and Clang rejects ([[maybe_unused]]
// on a statement): the function that holds it, and the function that calls
// it, are left as written (DW0060); the rest of the file is rewritten. An
// attribute Clang does not know (nv_pure) is only a warning to Clang too:
// the functions that carry it are rewritten as any other.
// RUN: %distwar-rewrite --no-cuda-sdk %s -o %t.cu --report=json --report-file=%t.json -- %shim 2> %t.err
// RUN: %FileCheck %s --check-prefix=WARN -DFILE=%s --implicit-check-not=error < %t.err
// RUN: %FileCheck %s --check-prefix=JSON -DFILE=%s < %t.json
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %s > %t.kept
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %t.cu > %t.out
// RUN: diff %t.kept %t.out
// RUN: %FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// WARN: distwar-rewrite: warning: [[FILE]]:[[#ATTR:@LINE+6]]:5: Clang cannot parse this: 'maybe_unused' attribute cannot be applied to a statement (3 functions left as written, DW0060 parse-error-in-function)

// left as written: begin
__global__ void scaled(float *g, float *h, const int *id,
                       const float *__restrict__ v, float *last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  [[maybe_unused]] last[i] = v[i];
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}

__device__ float remember(float *last, int i, float v) {
  [[maybe_unused]] last[i] = v;
  return v;
}

__global__ void remembered(float *g, float *h, const int *id,
                           const float *__restrict__ v, float *last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float w = remember(last, i, v[i]);
  atomicAdd(&g[id[i]], w);
  atomicAdd(&h[id[i]], w);
}
// left as written: end

// CHECK: __attribute__((nv_pure)) float twice(float v) { return 2.f * v; }
__device__ __attribute__((nv_pure)) float twice(float v) { return 2.f * v; }

// CHECK: __global__ void __attribute__((nv_pure)) doubled(
// CHECK: distwar_batch
__global__ void __attribute__((nv_pure)) doubled(float *g, float *h,
                                                 const int *id,
                                                 const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], twice(v[i]));
  atomicAdd(&h[id[i]], v[i]);
}

// JSON:      "file": "[[FILE]]",
// JSON:      "parse_error": {
// JSON-NEXT:   "column": 5,
// JSON-NEXT:   "line": [[#ATTR:@LINE-35]],
// JSON-NEXT:   "message": "'maybe_unused' attribute cannot be applied to a statement",
// JSON-NEXT:   "unparsed_functions": 3
