// --variant=floor: every discarded-result atomicAdd becomes floorAdd.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=floor %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// CHECK: #include <distwar/runtime.cuh>
// CHECK-NOT: DISTWAR_SITES
// CHECK: #line 1 "{{.*}}floor.cu"

__global__ void k(float *a, unsigned *c, float *out, int id, float v) {
  // CHECK: ::distwar::floorAdd<float>(&a[id], v);
  atomicAdd(&a[id], v);
  // CHECK-NEXT: ::distwar::floorAdd<unsigned int>(&c[id], 1);
  atomicAdd(&c[id], 1);
  // CHECK-NEXT: out[0] = atomicAdd(&a[id + 1], v);
  out[0] = atomicAdd(&a[id + 1], v);
}
