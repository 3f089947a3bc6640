// Moving code must never change which variable a name refers to. A
// declaration hoisted to the loop body's start (butterfly output) would hide
// an outer variable that the body reads before the declaration; a
// declaration between the sites would hide a buffer that the reduction's
// address lambda names. Both keep a variant that moves nothing (DW0049).
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK: names-kept.cu: 6 atomic site(s), 3 group(s), rewritten

// `w` is read (the outer one) before `const float w` that the butterfly
// would hoist: serial instead, nothing hoisted.
// CHECK-DAG: group hoistCapture#0: batched (serial; not butterfly: DW0049 name-shadowed)
__global__ void hoistCapture(float *ga, float *gb, const int *ids,
                             const float *x, const float *thr, float *out,
                             int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float w = 0.25f;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * 64 + j] + w;
    if (v < thr[tid])
      continue;
    const float w = v * 2.f;
    const int id = ids[j];
    atomicAdd(&ga[id], w);
    atomicAdd(&gb[id], v);
    out[tid] += w;
  }
}

// A local `ga` declared between the sites hides the parameter that the
// first site adds to: left alone.
// CHECK-DAG: group hiddenBuffer@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0049 name-shadowed
__global__ void hiddenBuffer(float *ga, float *gb, float *gc, const int *ids,
                             const float *x, float *out, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * 64 + j];
    if (v < 0.5f)
      continue;
    const int id = ids[j];
    atomicAdd(&ga[id], v);
    float *ga = gc;
    atomicAdd(&gb[id], v);
    out[tid] += ga[0] * 0.f;
  }
}

// The same names, no hiding: batched with the butterfly.
// CHECK-DAG: group noHiding#0: batched (butterfly{{( or serial, chosen at run time)?}})
__global__ void noHiding(float *ga, float *gb, const int *ids, const float *x,
                         float *out, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * 64 + j];
    if (v < 0.5f)
      continue;
    const float w = v * 2.f;
    const int id = ids[j];
    atomicAdd(&ga[id], w);
    atomicAdd(&gb[id], v);
    out[tid] += w;
  }
}
