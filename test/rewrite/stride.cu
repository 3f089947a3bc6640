// Stride-K arrays, in subscript and pointer-arithmetic form, commuted.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

constexpr int K = 3;

__global__ void stride(float *grad, double *dd, int n, float v) {
  int key = blockIdx.x;
  // CHECK: ::distwar::Fields<float, 5, ::distwar::AlwaysSet<0, 5>> distwar_batch0; distwar_batch0.set(0, &grad[key * 3 + 0], v);
  atomicAdd(&grad[key * 3 + 0], v);
  // CHECK-NEXT: distwar_batch0.set(1, &grad[3 * key + 1], v);
  atomicAdd(&grad[3 * key + 1], v);
  // CHECK-NEXT: distwar_batch0.set(2, &grad[(2 + key * K)], v);
  atomicAdd(&grad[(2 + key * K)], v);
  // CHECK-NEXT: distwar_batch0.set(3, grad + key * 3 + 1, v);
  atomicAdd(grad + key * 3 + 1, v);
  // CHECK-NEXT: distwar_batch0.set(4, (key * K) + grad, v); ::distwar::reduceSerial(distwar_batch0, key, DISTWAR_SITE_THRESHOLD(distwar_sites_stride_cu, 0), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &grad[key * 3 + 0]; if (distwar_slot == 1) return &grad[3 * key + 1]; if (distwar_slot == 2) return &grad[(2 + key * K)]; if (distwar_slot == 3) return grad + key * 3 + 1; if (distwar_slot == 4) return (key * K) + grad; return nullptr; });
  atomicAdd((key * K) + grad, v);
}
