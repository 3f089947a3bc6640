// An early return before the loop (a texel outside the image) becomes the
// active flag's first term, so edge warps reach the butterfly too; where
// that cannot be proven the return stays, the group keeps the butterfly with
// a note (lanes that returned are absent at the call, and the runtime sends
// such warps as plain atomics), and only a per-lane trip count makes it serial.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if format-compact %{ test $(grep -c '' %s) -eq $(tail -n +4 %t.cu | grep -c '') %}
// RUN: %check-line-map %s %t.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// Diffuse-cubemap shape: a uniform loop over every texel after the return.
__global__ void converted(float *gx, float *gy, const float *w, int n, int k) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  if (px >= n)
    return;
  const float s = 2.f * px;
  for (int t = 0; t < k; ++t) {
    const float v = w[px * k + t] * s;
    atomicAdd(&gx[t], v);
    atomicAdd(&gy[t], v * v);
  }
}
// CHECK-LABEL: __global__ void converted(
// CHECK: bool distwar_returned = (px >= n);
// CHECK-EMPTY:
// CHECK-NEXT: const float s = 2.f * px;
// CHECK: for (int t = 0;
// CHECK: t < k;
// CHECK: ++t) {
// CHECK: bool distwar_active0 = (!distwar_returned);
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: if (distwar_active0) {
// CHECK: distwar_batch0.set(1, &gy[t], v * v);
// CHECK: distwar_key0 = t;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_active0,
// CHECK: distwar_key0,
// REPORT: group converted#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t

// A load between the return and the loop would fault for returned lanes.
__global__ void loadBetween(float *gx, float *gy, const float *w, int n,
                            int k) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  if (px >= n)
    return;
  const float s = w[px];
  for (int t = 0; t < k; ++t) {
    atomicAdd(&gx[t], s);
    atomicAdd(&gy[t], s * s);
  }
}
// CHECK-LABEL: __global__ void loadBetween(
// CHECK: return;
// CHECK: distwar_key0 = t;
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: true,
// CHECK: distwar_key0,
// REPORT: group loadBetween#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}; note: DW0037 early-return)

// Code after the loop would run for returned lanes.
__global__ void codeAfter(float *gx, float *gy, float *out, int n, int k) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  if (px >= n)
    return;
  for (int t = 0; t < k; ++t) {
    atomicAdd(&gx[t], 1.f);
    atomicAdd(&gy[t], 2.f);
  }
  out[px] = 1.f;
}
// REPORT: group codeAfter#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}; note: DW0037 early-return)

// A barrier in the loop: returned lanes never executed it.
__global__ void barrier(float *gx, float *gy, int n, int k) {
  __shared__ float tile[64];
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  if (px >= n)
    return;
  for (int t = 0; t < k; ++t) {
    __syncthreads();
    atomicAdd(&gx[t], tile[t]);
    atomicAdd(&gy[t], 2.f);
  }
}
// REPORT: group barrier#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}; note: DW0037 early-return)

// Per-lane trip count after the return.
__global__ void laneBound(float *gx, float *gy, int n) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  if (px >= n)
    return;
  for (int t = 0; t < px; ++t) {
    atomicAdd(&gx[t], 1.f);
    atomicAdd(&gy[t], 2.f);
  }
}
// REPORT: group laneBound#0: batched (serial; not butterfly: DW0025 trip-count-varies)
