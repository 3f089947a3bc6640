// A user's operator[] is judged by its body, not its index: one that reads
// the thread index, or keeps state, is no uniform and pure key.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

struct LaneAcc {
  const int *ids;
  __device__ int operator[](int j) const { return ids[j] + (threadIdx.x & 1); }
};
// CHECK-DAG: group laneAccessor#0: batched (serial; not butterfly: DW0026 key-varies) key=id
__global__ void laneAccessor(float *ga, float *gb, LaneAcc acc, const float *x,
                             int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = acc[j];
    const float v = x[tid * 64 + j];
    atomicAdd(&ga[id], v);
    atomicAdd(&gb[id], v);
  }
}

// Called in the address: the key would be evaluated again.
// CHECK-DAG: unchanged atomicAdd in statefulAccessor {{.*}}[DW0019 key-side-effects
struct MutAcc {
  const int *ids;
  int n = 0;
  __device__ int operator[](int j) { return ids[j] + (n++ & 1); }
};
__global__ void statefulAccessor(float *ga, const int *ids, const float *x,
                                 int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  MutAcc acc{ids};
  for (int j = 0; j < n; j++) {
    const float v = x[tid * 64 + j];
    atomicAdd(&ga[acc[j] * 2], v);
    atomicAdd(&ga[acc[j] * 2 + 1], v);
  }
}

// A pure accessor that loads: the same key in every lane only if memory
// says so, which a call does not show (a plain load would).
struct PlainAcc {
  const int *ids;
  __device__ int operator[](int j) const { return ids[j]; }
};
// CHECK-DAG: group pureAccessor#0: batched (serial; not butterfly: DW0026 key-varies) key=id
__global__ void pureAccessor(float *ga, float *gb, PlainAcc acc,
                             const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = acc[j];
    const float v = x[tid * 64 + j];
    atomicAdd(&ga[id], v);
    atomicAdd(&gb[id], v);
  }
}
