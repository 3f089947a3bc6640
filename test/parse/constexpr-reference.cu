// A constant read through a reference (a static constexpr member,
// `lidar.SCALE`, as gsplat's lidar model does): nvcc accepts it, Clang's
// constant evaluator only from C++23 on (P2280). The front end parses such a
// file with Clang's newer evaluator, which follows C++23 there.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite --no-cache %s -- | diff %t.cu -

struct Lidar { static constexpr float SCALE = 4.f; const float *map; };
struct Params { Lidar lidar; };
__device__ float toAngle(const Params &p, float x) {
  const Lidar &lidar = p.lidar;
  constexpr float kToAngle = 1.f / lidar.SCALE;
  return x * kToAngle;
}
__global__ void backward(float *g, float *h, const int *id, const Params *__restrict__ p, const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], toAngle(p[0], v[i]));
  atomicAdd(&h[id[i]], v[i]);
}

// CHECK: 2 atomic site(s), 1 group(s), rewritten
