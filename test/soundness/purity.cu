// Purity and uniformity come from declarations and bodies, never from a
// name: a user's `make_...` function that writes memory is not speculated
// into lanes that skipped it, and one that reads the thread index does not
// make a key warp-uniform. CUDA's own make_float3 and math functions are.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__device__ int *g_calls;
__device__ float make_weight(float v) {
  g_calls[blockIdx.x * blockDim.x + threadIdx.x] += 1;
  return v * 0.5f;
}

// The call stays under the per-lane guard: the warp-uniform speculation
// branch opens only after it.
// CHECK: if (a < thr[tid])
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: const float w = make_weight(a);
// REPORT-DAG: group speculation#0: batched (butterfly{{( or serial, chosen at run time)?}})
__global__ void speculation(float *ga, float *gb, const int *ids,
                            const float *x, const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float s[32];
  if (threadIdx.x < 32)
    s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < min(32, n); j++) {
    const float a = s[j];
    if (a < thr[tid])
      continue;
    const float w = make_weight(a);
    if (w < 0.1f)
      continue;
    const int id = ids[j];
    atomicAdd(&ga[id], w);
    atomicAdd(&gb[id], a);
  }
}

// Reads threadIdx: the key differs across lanes (match-any).
// REPORT-DAG: group laneKey#0: batched (serial; not butterfly: DW0026 key-varies) key=id
__device__ int make_key(int j) { return j * 4 + (int)(threadIdx.x % 32) / 8; }
__global__ void laneKey(float *ga, float *gb, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = make_key(j);
    atomicAdd(&ga[id], x[tid * 64 + j]);
    atomicAdd(&gb[id], 1.f);
  }
}

// A function of its arguments alone: the key is uniform.
// REPORT-DAG: group argumentKey#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=id
__device__ int make_slot(int j) { return j * 4 + 1; }
__global__ void argumentKey(float *ga, float *gb, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = make_slot(j);
    atomicAdd(&ga[id], x[tid * 64 + j]);
    atomicAdd(&gb[id], 1.f);
  }
}
