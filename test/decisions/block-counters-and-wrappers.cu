// Left alone, with the reason a person would give: a block reduction by hand
// (every lane adds into a __shared__ counter, one lane adds the counter), an
// atomic-add wrapper whose pointer comes from its caller, and a thread per
// primitive that adds a sum it looped for. A key the whole warp shares is
// not a thread per primitive, whatever its value.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %FileCheck --check-prefix=OUT %s < %t.cu

// CHECK: block-counters-and-wrappers.cu: 5 atomic site(s), 3 group(s), rewritten

// The counter is the caller's (shared memory passed as a pointer): that
// thread 0 adds what the others added into it is what makes this a
// reduction.
// CHECK-DAG: block-counters-and-wrappers.cu:[[@LINE+11]]:5: unchanged atomicAdd in blockCount {{.*}}[DW0035 already-reduced
// CHECK-DAG: block-counters-and-wrappers.cu:[[@LINE+13]]:5: unchanged atomicAdd in blockCount {{.*}}[DW0035 already-reduced
__device__ void blockCount(int *total, const int *flags, int n, int *scratch) {
  int *count = &scratch[2];
  if (threadIdx.x == 0)
    *count = 0;
  __syncthreads();
  int mine = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    mine += flags[i] > 0;
  if (mine > 0)
    atomicAdd(count, mine);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(total, *count);
}

// The pointer is the caller's: one element per lane, its address unknown
// here (not a key the group changes: the call is the group's own atomic).
// CHECK-DAG: block-counters-and-wrappers.cu:[[@LINE+3]]:3: unchanged atomicAdd in gradient::add {{.*}}[DW0051 element-key-varies
namespace gradient {
template <typename T> __device__ void add(T *__restrict__ address, T value) {
  atomicAdd(address, value);
}
} // namespace gradient

// CHECK-DAG: block-counters-and-wrappers.cu:[[@LINE+7]]:3: unchanged atomicAdd in perPrimitive {{.*}}[DW0027 distinct-keys
__global__ void perPrimitive(float *grad, const int *ids, const float *v,
                             int n) {
  const int id = ids[blockIdx.x * blockDim.x + threadIdx.x];
  float sum = 0.f;
  for (int i = 0; i < n; ++i)
    sum += v[i * 32 + threadIdx.x];
  atomicAdd(&grad[id], sum);
}

// The same sum into one primitive the kernel is given: every lane adds to
// one key.
// CHECK-DAG: group sharedPrimitive#0: batched (butterfly-uniform)
// OUT: ::distwar::reduceButterflyUniform
__global__ void sharedPrimitive(float *grad, const float *v, int n, int prim) {
  float sum = 0.f;
  for (int i = 0; i < n; ++i)
    sum += v[i * 32 + threadIdx.x];
  atomicAdd(&grad[prim], sum);
}
