// nvcc's diagnostics in rewritten code point at the user's file and line:
// the prologue's #line and edits that keep every line break. The error is
// compiled in only for nvcc (the tool parses without it).
// RUN: %distwar-rewrite --no-cuda-sdk %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s --check-prefix=OUT
// OUT: distwar_batch0.set(3, &o[id],
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %not %nvcc-check -DDELIBERATE_ERROR %t.cu 2>&1 | %FileCheck %s %}

#define ADD3(b, i, v)                                                          \
  atomicAdd(&b[i].x, v.x);                                                     \
  atomicAdd(&b[i].y, v.y);                                                     \
  atomicAdd(&b[i].z, v.z)

__global__ void k(float3 *g, float *o, const int *ids, float3 v, float w) {
  const int id = ids[threadIdx.x];
  ADD3(g,
       id,
       v);
  atomicAdd(&o[id],
            w);
#ifdef DELIBERATE_ERROR
  // CHECK: line-directives.cu([[@LINE+1]]): error: identifier "undeclared_name" is undefined
  undeclared_name = 1;
#endif
}
