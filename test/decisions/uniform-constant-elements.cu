// Camera and pose gradients: every lane adds to the same few elements of
// kernel parameters (`dL_dintr[0]`, a 3x4 pose's twelve entries). Such
// addresses are the same in every lane: the constant elements of buffers
// the same in every lane form one warp-uniform batch per iteration,
// whichever their buffers, not one group per index (nor one per index
// across buffers). Each element's address is kept in the batch; the report
// names the group's key by its first site's buffer.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}

// REPORT-DAG: group camera#0: batched (butterfly-uniform) key=dL_dintr type=float sites=14 slots=14
// REPORT-DAG: batched atomicAdd in camera buffer=dL_dpose key=dL_dpose field=[11] slot=13 type=float group=camera#0
// CHECK-LABEL: __global__ void camera(
// CHECK: ::distwar::Batch<float, 14, ::distwar::AlwaysSet<0, 14>> distwar_batch0;
// CHECK: distwar_batch0.set(0, &dL_dintr[0], u);
// CHECK: distwar_batch0.set(1, &dL_dintr[1], v);
// CHECK: distwar_batch0.set(2, &dL_dpose[0], u);
// CHECK: distwar_batch0.set(13, &dL_dpose[11], u * v);
// CHECK: ::distwar::reduceButterflyUniform({{[[:space:]]*}}distwar_batch0,
// CHECK-NOT: distwar_batch1
__global__ void camera(float *dL_dintr, float *dL_dpose,
                       const float2 *__restrict__ uv, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float u = uv[i].x, v = uv[i].y;
  atomicAdd(&dL_dintr[0], u);
  atomicAdd(&dL_dintr[1], v);
  atomicAdd(&dL_dpose[0], u);
  atomicAdd(&dL_dpose[1], v);
  atomicAdd(&dL_dpose[2], u + v);
  atomicAdd(&dL_dpose[3], u - v);
  atomicAdd(&dL_dpose[4], 2.f * u);
  atomicAdd(&dL_dpose[5], 2.f * v);
  atomicAdd(&dL_dpose[6], 3.f * u);
  atomicAdd(&dL_dpose[7], 3.f * v);
  atomicAdd(&dL_dpose[8], u * u);
  atomicAdd(&dL_dpose[9], v * v);
  atomicAdd(&dL_dpose[10], u * v + 1.f);
  atomicAdd(&dL_dpose[11], u * v);
}

// The same index of two buffers, in a loop: one batch of three fields.
// REPORT-DAG: group sameIndex#0: batched (butterfly-uniform) key=ga type=float sites=3 slots=3
// CHECK-LABEL: __global__ void sameIndex(
// CHECK: distwar_batch0.set(0, &ga[0], v);
// CHECK: distwar_batch0.set(1, &gb[0], 2.f * v);
// CHECK: distwar_batch0.set(2, &ga[1], 3.f * v);
// CHECK-NOT: distwar_batch1
// CHECK-LABEL: __global__ void between(
__global__ void sameIndex(float *ga, float *gb, const float *__restrict__ x,
                          int n) {
  for (int j = 0; j < n; j++) {
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(&ga[0], v);
    atomicAdd(&gb[0], 2.f * v);
    atomicAdd(&ga[1], 3.f * v);
  }
}

// A call that may write memory between two elements: the batch of the
// whole would be deferred past it, so each element keeps a group of its own
// (as before such batches).
// REPORT-DAG: group between#0: batched (butterfly-uniform) key=ga type=float sites=1 slots=1
// REPORT-DAG: group between#1: batched (butterfly-uniform) key=gb type=float sites=1 slots=1
// CHECK: distwar_batch0.set(0, &ga[0], x[i]);
// CHECK: record(log, x[i]);
// CHECK: distwar_batch1.set(0, &gb[1], x[i]);
// CHECK-LABEL: __global__ void dependent(
__device__ void record(float *log, float v) { log[threadIdx.x] = v; }
__global__ void between(float *ga, float *gb, float *log,
                        const float *__restrict__ x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&ga[0], x[i]);
  record(log, x[i]);
  atomicAdd(&gb[1], x[i]);
}

// A buffer that is a template's `scalar_t *` keeps one group per element:
// its key type would not be known before instantiation.
// REPORT-DAG: group dependent#0: batched (butterfly-uniform) key=0 type=scalar_t sites=1 slots=1
// REPORT-DAG: group dependent#1: batched (butterfly-uniform) key=1 type=scalar_t sites=1 slots=1
template <typename scalar_t>
__global__ void dependent(scalar_t *g, const scalar_t *__restrict__ x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&g[0], x[i]);
  atomicAdd(&g[1], x[i] * x[i]);
}
template __global__ void dependent<float>(float *, const float *, int);
