// A group's butterfly closes its guards after its holder; when that holder is
// also the last statement of another batched group of the iteration, the
// other group's serial reduction would land after the closing brace, outside
// the block that declares its batch. No guard may close there: the butterfly
// falls back to serial (DW0029). Found by the differential tester (a field
// under a lane-dependent if extended the float group to the if).
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK-DAG: group overlap#1: batched (serial; not butterfly: DW0029 several-groups) key=id type=unsigned long long sites=1 slots=1
// CHECK-DAG: group overlap#2: batched (serial; not butterfly: DW0029 several-groups) key=id type=float sites=2 slots=2
__global__ void overlap(float *ga, float *gb, double *gd, const double *alias,
                        unsigned long long *gc, const float *__restrict__ x,
                        const float *__restrict__ thr, int *obs, int n,
                        int npix) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = thr[tid];
  const bool done = tid >= npix;
  int seen = 0;
  for (int j = 0; !done && j < n; j++) {
    const float a = x[tid * 8 + j];
    const int id = blockIdx.x % 64;
    atomicAdd(&ga[id], a);
    atomicAdd(&gd[id], (double)a);
    seen += alias[id] > 0.0;
    if (a > t) {
      atomicAdd(&gb[id], a);
      atomicAdd(&gc[id], 1ull);
    }
  }
  obs[tid] = seen;
}
