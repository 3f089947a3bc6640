// Where meaning could change, no active flag: the group falls back to the
// serial variant (or stays as written) and the report says why.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=butterfly %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void breaks(float *ga, float *gb, int n, float v) {
  for (int i = 0; i < n; i++) {
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[i], v);
    if (v > i)
      break;
  }
}
// CHECK-DAG: group breaks#0: batched (serial; not butterfly: DW0021 break-or-goto)

__global__ void returns(float *ga, float *gb, int n, float v) {
  for (int i = 0; i < n; i++) {
    if (v > i + threadIdx.x)
      return;
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[i], v);
  }
}
// CHECK-DAG: group returns#0: batched (serial; not butterfly: DW0022 return-in-loop)

__global__ void switchContinue(float *ga, float *gb, int n, float v) {
  for (int i = 0; i < n; i++) {
    switch (threadIdx.x & 3) {
    case 1:
      continue;
    default:
      break;
    }
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[i], v);
  }
}
// CHECK-DAG: group switchContinue#0: batched (serial; not butterfly: DW0023 unconvertible-continue)

__global__ void continueNotLast(float *ga, float *gb, float *out, int n,
                                float v) {
  for (int i = 0; i < n; i++) {
    if (v > threadIdx.x) {
      continue;
      out[i] = v;
    }
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[i], v);
  }
}
// CHECK-DAG: group continueNotLast#0: batched (serial; not butterfly: DW0023 unconvertible-continue)

__global__ void collective(float *ga, float *gb, int n, float v) {
  for (int i = 0; i < n; i++) {
    if (v > threadIdx.x)
      continue;
    __syncthreads();
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[i], v);
  }
}
// CHECK-DAG: group collective#0: batched (serial; not butterfly: DW0024 collective-in-region)

__global__ void perLaneTrips(float *ga, float *gb, const int *len, float v) {
  for (int i = 0; i < len[threadIdx.x]; i++) {
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[i], v);
  }
}
// CHECK-DAG: group perLaneTrips#0: batched (serial; not butterfly: DW0025 trip-count-varies)

__global__ void termThenRead(float *ga, float *gb, const int *len, int w,
                             float v) {
  const bool inside = threadIdx.x < w;
  for (int i = 0; inside && i < len[0]; i++) {
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[i], v);
  }
}
// CHECK-DAG: group termThenRead#0: batched (serial; not butterfly: DW0030 loop-condition)

// Two groups whose regions interleave: no guard may cut the other's region,
// so the first stays serial (inside the guard) and the second keeps the flag.
__global__ void twoGroups(float *ga, float *gb, float *gc, const int *ids,
                          int n, float v) {
  for (int i = 0; i < n; i++) {
    if (v > threadIdx.x)
      continue;
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[ids[i]], v);
    atomicAdd(&gc[i], v);
    atomicAdd(&gc[ids[i]], v);
  }
}
// CHECK-DAG: group twoGroups#0: batched (serial; not butterfly: DW0029 several-groups)
// CHECK-DAG: group twoGroups#1: batched (butterfly) key=ids[i]

// (x is __restrict__: a reference to an element of a buffer that may be a
// destination would keep the group as written, DW0047.)
__global__ void noHoist(float *ga, float *gb, float *out,
                        const float *__restrict__ x, int n) {
  for (int i = 0; i < n; i++) {
    if (x[i] > threadIdx.x)
      continue;
    const float &r = x[i];
    atomicAdd(&ga[i], r);
    atomicAdd(&gb[i], r);
    out[i] = r;
  }
}
// CHECK-DAG: group noHoist#0: batched (serial; not butterfly: DW0028 hoist-impossible)
