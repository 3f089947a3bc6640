// A kernel's __shared__ array is one per thread block, so the same for
// every lane of a warp: adds to it are batched as adds to a kernel's
// parameter are, its constant elements one batch keyed by the array
// (uniform-constant-elements.cu). Where only the array's size is a template
// parameter (`__shared__ float acc[N]`), its element type is still known;
// the array is then no key the batch can spell, and each element keeps its
// own group.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK: 4 atomic site(s), 3 group(s), rewritten
// CHECK-DAG: batched atomicAdd in moments buffer=acc key=acc field=[1] slot=1 type=float
// CHECK-DAG: batched atomicAdd in momentsOf buffer=acc key=1 {{.*}}type=float
// CHECK-DAG: group moments#0: batched {{.*}}sites=2 slots=2
// CHECK-DAG: group momentsOf#1: batched
// CHECK-NOT: DW0036
// CHECK-NOT: DW0006

__global__ void moments(const float *x, float *out, int n) {
  __shared__ float acc[2];
  if (threadIdx.x < 2)
    acc[threadIdx.x] = 0.f;
  __syncthreads();
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    const float v = x[j];
    atomicAdd(&acc[0], v);
    atomicAdd(&acc[1], v * v);
  }
  __syncthreads();
  if (threadIdx.x < 2)
    out[blockIdx.x * 2 + threadIdx.x] = acc[threadIdx.x];
}

template <int N>
__global__ void momentsOf(const float *x, float *out, int n) {
  __shared__ float acc[N];
  if (threadIdx.x < N)
    acc[threadIdx.x] = 0.f;
  __syncthreads();
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    const float v = x[j];
    atomicAdd(&acc[0], v);
    atomicAdd(&acc[1], v * v);
  }
  __syncthreads();
  if (threadIdx.x < N)
    out[blockIdx.x * N + threadIdx.x] = acc[threadIdx.x];
}
template __global__ void momentsOf<2>(const float *, float *, int);
