// Host code calling CUDA's min and max: nvcc's math headers declare them for
// host code too, Clang's only for device code. Every overload nvcc has, in
// host code; device code keeps Clang's.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void backward(float *g, float *h, const int *id, const float *__restrict__ v,
                         int n) {
  int i = min(int(blockIdx.x * blockDim.x + threadIdx.x), n - 1);
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], max(v[i], 0.f));
}

unsigned threadsFor(int n, unsigned maxThreads, long a, unsigned long b,
                    long long c, unsigned long long d, float x, double y) {
  unsigned t = min(maxThreads, (unsigned)max(n, 1));
  t = min(t, n) + max(n, t);
  long l = min(a, a) + max(b, a) + min(a, b);
  long long ll = min(c, c) + max(d, c) + min(c, d) + max(d, d);
  double f = min(x, x) + max(y, x) + min(x, y) + max(y, y);
  return t + unsigned(l + ll + f);
}

// CHECK: 2 atomic site(s), 1 group(s), rewritten
