// PyTorch's gpuAtomicAdd is an atomic add wherever torch declares it (in
// ATen/cuda/Atomic.cuh in older releases, in torch/headeronly/cuda/Atomic.h
// in newer ones), also called from a template, where the call's overloads
// are resolved per instantiation. A function of the same name declared
// elsewhere is the user's own (test/soundness/user-atomics.cu).
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.old.txt -- %shim -isystem %inputs/torch-old > %t.old.cu
// RUN: %FileCheck %s < %t.old.txt
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.new.txt -- %shim -isystem %inputs/torch-new > %t.new.cu
// RUN: %FileCheck %s < %t.new.txt
// RUN: diff %t.old.cu %t.new.cu

#include <ATen/cuda/Atomic.cuh>

// CHECK-DAG: group plainKernel#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=2 slots=2
__global__ void plainKernel(float *g, const int *ids, const float *__restrict__ v,
                            int n) {
  for (int j = 0; j < n; ++j) {
    const int id = ids[j];
    gpuAtomicAdd(&g[id * 2 + 0], v[j]);
    gpuAtomicAdd(&g[id * 2 + 1], 2.f * v[j]);
  }
}

// CHECK-DAG: group templated#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=scalar_t sites=2 slots=2
template <typename scalar_t>
__global__ void templated(scalar_t *g, const int *ids,
                          const scalar_t *__restrict__ v, int n) {
  for (int j = 0; j < n; ++j) {
    const int id = ids[j];
    gpuAtomicAdd(g + id * 2, v[j]);
    gpuAtomicAdd(g + id * 2 + 1, v[j]);
  }
}
template __global__ void templated<float>(float *, const int *, const float *,
                                          int);

// An optional output tested for null and indexed by sums on a `T *`: with
// torch's operators visible, both are operator calls left unresolved, which
// can only be the built-in ones.
// CHECK-DAG: group optionalOutput#0: batched (serial; not butterfly: DW0031 not-in-loop) key=e type=scalar_t sites=3 slots=3
struct V3 { float x, y, z; };
template <typename scalar_t>
__global__ void optionalOutput(unsigned n, scalar_t *__restrict__ v_dirs,
                               const V3 *__restrict__ d) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * 3)
    return;
  unsigned e = i / 3;
  V3 v = d[i];
  if (v_dirs != nullptr) {
    gpuAtomicAdd(v_dirs + e * 3, v.x);
    gpuAtomicAdd(v_dirs + e * 3 + 1, v.y);
    gpuAtomicAdd(v_dirs + e * 3 + 2, v.z);
  }
}
template __global__ void optionalOutput<float>(unsigned, float *, const V3 *);
