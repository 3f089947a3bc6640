// A double narrowed to float in a braced initialiser: nvcc warns, Clang
// makes it an error by default. The front end reads nvcc's dialect.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void backward(float2 *g, const int *id, const float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float2 d = {v[i] * 0.5, v[i] * 2.0};
  atomicAdd(&g[id[i]].x, d.x);
  atomicAdd(&g[id[i]].y, d.y);
}

// CHECK: 2 atomic site(s), 1 group(s), rewritten
