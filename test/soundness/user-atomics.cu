// Only CUDA's atomicAdd (declared by the SDK, a system header) is an atomic
// site: a user's function of the same name is an ordinary call, kept as
// written, and the atomics inside its body are its own.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s --check-prefix=OUT
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK: user-atomics.cu: 2 atomic site(s), 1 group(s), unchanged
// CHECK: unchanged atomicAdd in dbg::atomicAdd {{.*}}type=float
// CHECK: unchanged atomicAdd in dbg::atomicAdd type=unsigned int
// OUT: dbg::atomicAdd(&ga[id], v);
// OUT: dbg::atomicAdd(&gb[id], v * 2.f);
__device__ unsigned g_count;
namespace dbg {
__device__ void atomicAdd(float *p, float v) {
  ::atomicAdd(p, v);
  ::atomicAdd(&g_count, 1u);
}
} // namespace dbg
__global__ void wrapped(float *ga, float *gb, const int *ids, const float *x,
                        int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * 64 + j];
    const int id = ids[j];
    dbg::atomicAdd(&ga[id], v);
    dbg::atomicAdd(&gb[id], v * 2.f);
  }
}
