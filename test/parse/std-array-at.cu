// std::array::at in a __host__ __device__ function: nvcc compiles it (a
// warning, none with --expt-relaxed-constexpr), Clang rejects the call to
// libstdc++'s host-only thrower. The front end declares device-side
// throwers, so the file parses.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check --expt-relaxed-constexpr %t.cu %}

#include <array>
struct Poly { std::array<float, 6> c; };
__host__ __device__ inline float eval(const Poly &p, float x) {
  return p.c.at(0) + x * p.c.at(1);
}
__global__ void backward(float *g, float *h, const int *id, const Poly *__restrict__ p, const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = eval(p[0], v[i]);
  atomicAdd(&g[id[i]], e);
  atomicAdd(&h[id[i]], v[i]);
}

// CHECK: 2 atomic site(s), 1 group(s), rewritten
