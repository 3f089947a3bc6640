// A function Clang cannot parse leaves as written every function that
// reaches it: a kernel that would be rewritten but calls it (directly or
// through a lambda) keeps its atomics, and a host function with an error
// keeps its launch unwrapped, while a sound host function's launch of the
// same batched kernel is wrapped. nvcc compiles the input (a warning for the
// attribute) and the output.
// RUN: %distwar-rewrite --no-cuda-sdk %s -o %t.cu --report --report-file=%t.txt -- %shim 2> %t.err
// RUN: %FileCheck %s --check-prefix=WARN -DFILE=%s --implicit-check-not=error < %t.err
// RUN: %FileCheck %s --check-prefix=REPORT -DFILE=%s < %t.txt
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %s > %t.kept
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %t.cu > %t.out
// RUN: diff %t.kept %t.out
// RUN: %FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// The floor variant leaves them alone too.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=floor %s -o %t.floor.cu -- %shim 2> /dev/null
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %t.floor.cu > %t.floor.out
// RUN: diff %t.kept %t.floor.out
// RUN: grep -v "^ *//" %t.floor.cu | %FileCheck %s --check-prefix=FLOOR
// FLOOR-COUNT-2: ::distwar::floorAdd<float>(
// FLOOR-NOT: floorAdd

// WARN: distwar-rewrite: warning: [[FILE]]:[[#BROKEN:@LINE+5]]:7: Clang cannot parse this: 'maybe_unused' attribute cannot be applied to a statement (4 functions left as written, DW0060 parse-error-in-function)

// left as written: begin
__device__ float weight(float *seen, int i, float v) {
  if (v > 0.f)
    [[maybe_unused]] seen[i] = v;
  return v;
}

__global__ void direct(float *g, float *h, const int *id,
                       const float *__restrict__ v, float *seen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], weight(seen, i, v[i]));
  atomicAdd(&h[id[i]], v[i]);
}

__global__ void throughLambda(float *g, float *h, const int *id,
                              const float *__restrict__ v, float *seen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto w = [&](float x) { return weight(seen, i, x); };
  atomicAdd(&g[id[i]], w(v[i]));
  atomicAdd(&h[id[i]], v[i]);
}
// left as written: end

// CHECK: __global__ void sound(
// CHECK: distwar_batch
__global__ void sound(float *g, float *h, const int *id,
                      const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}

// left as written: begin
void launchBroken(float *g, float *h, const int *id, const float *v,
                  float *last) {
  [[maybe_unused]] last[0] = 1.f;
  sound<<<1, 32>>>(g, h, id, v);
}
// left as written: end

// CHECK: void launchSound(
// CHECK-NEXT: { static ::distwar::LaunchTuner distwar_tuner0("sound"
void launchSound(float *g, float *h, const int *id, const float *v) {
  sound<<<1, 32>>>(g, h, id, v);
}

// REPORT: [[FILE]]: 6 atomic site(s), 1 group(s), rewritten
// REPORT-NEXT: [[FILE]]:[[#BROKEN:@LINE-44]]:7: Clang error: 'maybe_unused' attribute cannot be applied to a statement; 4 function(s) left as written (DW0060 parse-error-in-function)
// REPORT-NEXT: unchanged atomicAdd in direct type=float [DW0060
// REPORT-NEXT: unchanged atomicAdd in direct type=float [DW0060
// REPORT-NEXT: unchanged atomicAdd in throughLambda type=float [DW0060
// REPORT-NEXT: unchanged atomicAdd in throughLambda type=float [DW0060
// REPORT-NEXT: batched atomicAdd in sound
// REPORT-NEXT: batched atomicAdd in sound
