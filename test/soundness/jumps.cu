// Jumps: a goto taken by some lanes makes everything after it lane-dependent
// (no butterfly on a key that is only uniform along straight paths); a label
// or case between the sites could be entered from outside, running only part
// of the group (DW0048).
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s --check-prefix=OUT
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// `key` is 1 or 2 depending on the lane: match-any, not the uniform
// butterfly; the slots are not always set (a jump may skip them).
// CHECK: group gotoKey#0: batched (serial; not butterfly: DW0026 key-varies) key=key
// OUT: ::distwar::Fields<float, 2> distwar_batch0;
__global__ void gotoKey(float *ga, float *gb, const float *x) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int key = 1;
  if (x[tid] < 0.5f)
    goto done;
  key = 2;
done:;
  const float v = x[tid + 1];
  atomicAdd(&ga[key], v);
  atomicAdd(&gb[key], v * 2.f);
}

// A label between the sites: a goto from before could skip the first.
// CHECK: group labelBetween@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0048 jump-into-region
__global__ void labelBetween(float *ga, float *gb, const float *x, int id) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = x[tid];
  if (v < 0.f)
    goto second;
  atomicAdd(&ga[id], v);
second:;
  atomicAdd(&gb[id], v);
}

// Cases of a switch around the sites: falling into the second case skips the
// first site.
// CHECK: group caseBetween@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0048 jump-into-region
__global__ void caseBetween(float *ga, float *gb, const int *sel,
                            const float *x, int id) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  switch (sel[tid]) {
  case 0:;
    atomicAdd(&ga[id], x[tid]);
  case 1:;
    atomicAdd(&gb[id], x[tid]);
  }
}
