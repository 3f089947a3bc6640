// Host-only code and device code without atomics: the file is unchanged.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.txt
// CHECK: host-only.cu: 0 atomic site(s), 0 group(s), unchanged

static int host_sum(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

int run(float *x, const int *v) {
  scale<<<1, 32>>>(x, 2.f);
  return host_sum(v, 4);
}
