// A file whose lines end in CRLF keeps CRLF on every line of the output,
// the inserted ones (prologue, batches, #line directives) included, in both
// layouts; nothing else about the output changes.
// RUN: rm -rf %t && mkdir -p %t/crlf %t/lf
// RUN: python3 %S/../Inputs/crlf.py to-crlf %s %t/crlf/k.cu
// RUN: python3 %S/../Inputs/crlf.py to-lf %s %t/lf/k.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t/crlf/k.cu -o %t/crlf/out.cu -- %shim
// RUN: %distwar-rewrite --no-cuda-sdk %t/lf/k.cu -o %t/lf/out.cu -- %shim
// RUN: python3 %S/../Inputs/crlf.py check-crlf %t/crlf/out.cu
// RUN: python3 %S/../Inputs/crlf.py to-lf %t/crlf/out.cu %t/crlf/back.cu
// RUN: sed 's#%t/crlf/#DIR/#' %t/crlf/back.cu > %t/crlf/back.norm.cu
// RUN: sed 's#%t/lf/#DIR/#' %t/lf/out.cu > %t/lf/out.norm.cu
// RUN: diff %t/lf/out.norm.cu %t/crlf/back.norm.cu
// RUN: grep -v '^ *//' %t/crlf/back.cu | %FileCheck %s
// CHECK: #include <distwar/runtime.cuh>
// CHECK: #line
// CHECK: ::distwar::reduce
// RUN: %if nvcc %{ %nvcc-check %t/crlf/out.cu %}

struct Grad {
  float x, y, z;
};

__global__ void backward(const int *ids, Grad *g, const float *w, int n) {
  for (int j = 0; j < n; ++j) {
    const int id = ids[j * 32 + threadIdx.x % 32];
    const float v = w[j];
    atomicAdd(&g[id].x, v);
    atomicAdd(&g[id].y, 2.f * v);
    atomicAdd(&g[id].z, 3.f * v);
  }
}
