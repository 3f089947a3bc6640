// A function that already reduces across the warp by hand is left alone with
// the already-reduced reason (DW0035) for every atomic, a system-scope add
// included (gsplat's lane-0 adds): that says more than "unsupported atomic".
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.txt

// CHECK: unchanged atomicAdd_system in reduced {{.*}}[DW0035 already-reduced
// CHECK: unchanged atomicAdd in reduced {{.*}}[DW0035 already-reduced
__global__ void reduced(float *g, float *h, const int *ids, const float *v) {
  float s = v[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) {
    atomicAdd_system(&g[ids[blockIdx.x]], s);
    atomicAdd(&h[ids[blockIdx.x]], s);
  }
}
