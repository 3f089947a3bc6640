// Stride-K arrays, in subscript and pointer-arithmetic form, commuted.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

constexpr int K = 3;

__global__ void stride(float *grad, double *dd, int n, float v) {
  int key = blockIdx.x;
  // CHECK: ::distwar::Fields<float, 5, ::distwar::AlwaysSet<0, 5>> distwar_batch0;
  // CHECK: distwar_batch0.set(0, &grad[key * 3 + 0], v);
  atomicAdd(&grad[key * 3 + 0], v);
  // CHECK: distwar_batch0.set(1, &grad[3 * key + 1], v);
  atomicAdd(&grad[3 * key + 1], v);
  // CHECK-NEXT: distwar_batch0.set(2, &grad[(2 + key * K)], v);
  atomicAdd(&grad[(2 + key * K)], v);
  // CHECK-NEXT: distwar_batch0.set(3, grad + key * 3 + 1, v);
  atomicAdd(grad + key * 3 + 1, v);
  // CHECK: distwar_batch0.set(4, (key * K) + grad, v);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: key,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_stride_cu,
  // CHECK: 0),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: float * {
  // CHECK: if (distwar_slot == 0)
  // CHECK: return &grad[key * 3 + 0];
  // CHECK: if (distwar_slot == 1)
  // CHECK: return &grad[3 * key + 1];
  // CHECK: if (distwar_slot == 2)
  // CHECK: return &grad[(2 + key * K)];
  // CHECK: if (distwar_slot == 3)
  // CHECK: return grad + key * 3 + 1;
  // CHECK: if (distwar_slot == 4)
  // CHECK: return (key * K) + grad;
  // CHECK: return nullptr;
  // CHECK: });
  atomicAdd((key * K) + grad, v);
}
