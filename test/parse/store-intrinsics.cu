// Cache-hinted stores (__stcs, __stcg, __stwb) on vector types, as a
// gsplat rasterizer streams its tiles: nvcc's sm_32_intrinsics.h declares
// them for every built-in type, Clang's wrapper only __stwt. The front end
// declares the others.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void backward(float *g, float *h, const int *id, const float *__restrict__ v, uint4 *dst, uint4 val) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcs(dst + i, val);
  __stcg(reinterpret_cast<float4 *>(dst) + i, make_float4(0, 0, 0, 0));
  __stwb(reinterpret_cast<int2 *>(dst) + i, make_int2(1, 2));
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}

// CHECK: 2 atomic site(s), 1 group(s), rewritten
