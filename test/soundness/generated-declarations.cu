// Every declaration the tool writes is valid C++ where it stands: constants
// that later statements use are moved whole (they stay constants), a key
// of enumeration type is value-initialised, and a type of an anonymous
// namespace is spelled by its own name.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

template <int K> __device__ float scaled(float v) { return v * K; }

// REPORT-DAG: group constArray#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id
// CHECK-LABEL: void constArray(
// CHECK: const int K = 4;
// CHECK: float tmp[K];
__global__ void constArray(float *g, float *out, const int *ids, const float *x,
                           int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int j = 0; j < n; j++) {
    const float a = x[tid * 64 + j];
    if (a > 0.9f)
      continue;
    const int K = 4;
    float tmp[K];
    for (int q = 0; q < K; q++)
      tmp[q] = a * q;
    const int id = ids[j];
    atomicAdd(&g[id * 4 + 0], tmp[1]);
    atomicAdd(&g[id * 4 + 1], tmp[2]);
    acc += K * a;
  }
  out[tid] = acc;
}

// Used after the reduction only as a template argument and in a static
// assertion.
// REPORT-DAG: group constexprAfter#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id
// CHECK-LABEL: void constexprAfter(
// CHECK: constexpr int K = 3;
// CHECK: distwar_active0
__global__ void constexprAfter(float *g, float *out, const int *ids,
                               const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int j = 0; j < n; j++) {
    const float a = x[tid * 64 + j];
    if (a > 0.9f)
      continue;
    constexpr int K = 3;
    const int id = ids[j];
    atomicAdd(&g[id * 4 + 0], a);
    atomicAdd(&g[id * 4 + 1], a);
    static_assert(K == 3, "three");
    acc += scaled<K>(a);
  }
  out[tid] = acc;
}

namespace {
enum Slot { S0, S1, S2 };
}
// REPORT-DAG: group enumKey#0: batched (butterfly{{.*}}) key=s
// CHECK-LABEL: void enumKey(
// CHECK: Slot distwar_key0{};
__global__ void enumKey(float *g, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float a = x[tid * 64 + j];
    if (a > 0.9f)
      continue;
    Slot s = (Slot)(j % 3);
    atomicAdd(&g[s * 2 + 0], a);
    atomicAdd(&g[s * 2 + 1], a);
  }
}

// A constant of an inner block, in a condition the address would repeat:
// out of scope where the reduction stands, so the site keeps its address.
// REPORT-DAG: group innerConstant#0: batched
__global__ void innerConstant(float *g, const int *ids, const float *x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float a = x[j];
    atomicAdd(&g[id * 2], a);
    {
      constexpr bool kSecond = true;
      if (kSecond)
        atomicAdd(&g[id * 2 + 1], a);
    }
  }
}

// A test of the key, on a local of an inner block: repeated for the
// address with the captured key, never with the local's name.
// REPORT-DAG: group keyTestInBlock#0: batched
// CHECK-LABEL: void keyTestInBlock(
// CHECK: return ((distwar_key0 & 1) == 0)
__global__ void keyTestInBlock(float *ga, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * 16 + j];
    const int id = (j + (v > 0.5f)) % 64;
    if (v < 0.75f) {
      int k = id;
      k += 1;
      if ((k & 1) == 0)
        atomicAdd(&ga[k], v);
    }
  }
}

// A constant of the `if` that holds the group, in the address: the group
// reduces after that `if`, so the sites keep their own addresses.
// REPORT-DAG: group constantInIf#0: batched
// CHECK-LABEL: void constantInIf(
// CHECK: ::distwar::Batch<float, 2
__global__ void constantInIf(float *g, const int *ids, const float *x, int n) {
  float w = 4.f;
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float a = x[j];
    if (w > 3.f) {
      constexpr int S = 3;
      atomicAdd(&g[id * S + 1], a);
      atomicAdd(&g[id * S + 2], a);
      w = w * 0.5f + S * a;
    }
  }
}
