// An offset added after the key: `buf + key + c` with the key computed into
// a local (a point's three coordinates behind `p_ind = 3 * p`), in subscript
// form, and with a constant-trip channel loop. The one term that is neither
// a constant nor the channel variable is the key. A pointer sum with more
// such terms is keyed by its address.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// REPORT-DAG: pointOffsets buffer=grad_points key=p_ind field=[+0] slot=0
// REPORT-DAG: pointOffsets buffer=grad_points key=p_ind field=[+2] slot=2
// REPORT-DAG: group pointOffsets#0: batched (serial; not butterfly: DW0025 trip-count-varies) key=p_ind type=float sites=3 slots=3
// CHECK-LABEL: __global__ void pointOffsets(
// CHECK: distwar_batch0.set(2, grad_points + p_ind + 2, 2.f * g);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: p_ind,
__global__ void pointOffsets(const int *__restrict__ idxs,
                             const float *__restrict__ grad_dists,
                             float *grad_points, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    const int p = idxs[i];
    if (p < 0)
      continue;
    const int p_ind = p * 3;
    const float g = grad_dists[i];
    atomicAdd(grad_points + p_ind + 0, g);
    atomicAdd(grad_points + p_ind + 1, -g);
    atomicAdd(grad_points + p_ind + 2, 2.f * g);
  }
}

// REPORT-DAG: group subscriptOffsets#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=base type=float sites=2 slots=2 strip
// CHECK-LABEL: __global__ void subscriptOffsets(
// CHECK: distwar_batch0.set(0, &g[base + 1], v);
// CHECK: distwar_batch0.set(1, &g[base + 4], 2.f * v);
// CHECK: distwar_strip0.keep(distwar_lap0, distwar_batch0);
__global__ void subscriptOffsets(float *g, const float *__restrict__ x,
                                 int n) {
  for (int j = 0; j < n; j++) {
    const int base = j * 8;
    const float v = x[j * 32 + threadIdx.x % 32];
    atomicAdd(&g[base + 1], v);
    atomicAdd(&g[base + 4], 2.f * v);
  }
}

// REPORT-DAG: channelOffsets buffer=grad key=off field=[+c] slot=c
// REPORT-DAG: group channelOffsets#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=off type=float sites=1 slots=4
// CHECK-LABEL: __global__ void channelOffsets(
// CHECK: distwar_batch0.set(
// CHECK: c,
// CHECK: grad + off + c,
// CHECK: v * c);
// CHECK: distwar_key0 = off;
__global__ void channelOffsets(float *grad, const int *ids,
                               const float *__restrict__ x, int n) {
  for (int j = 0; j < n; j++) {
    const int off = ids[j] * 4;
    const float v = x[j * 32 + threadIdx.x % 32];
    for (int c = 0; c < 4; c++)
      atomicAdd(grad + off + c, v * c);
  }
}

// A pointer sum with a run-time row length: no expression holds the index
// alone, so the address itself is the key; it varies across lanes, and a
// single element gains little from a warp reduction (DW0051).
// REPORT-DAG: faceAttrs buffer=grad_face_attrs key=grad_face_attrs + f * 3 * D + i * D + d type=float group=faceAttrs@{{[0-9]+}} [DW0051 element-key-varies
__global__ void faceAttrs(const long *__restrict__ pix_to_face,
                          const float *__restrict__ grad_pix,
                          float *grad_face_attrs, int P, int D) {
  for (int pd = blockIdx.x * blockDim.x + threadIdx.x; pd < P * D;
       pd += blockDim.x * gridDim.x) {
    const int p = pd / D;
    const int d = pd % D;
    const long f = pix_to_face[p];
    if (f < 0)
      continue;
    for (int i = 0; i < 3; ++i) {
      atomicAdd(grad_face_attrs + f * 3 * D + i * D + d, grad_pix[p * D + d]);
    }
  }
}

// Both terms are loop variables: the sum is one key, as before (the inner
// loop's body gets braces around its batch).
// REPORT-DAG: twoLoopVariables buffer=g key=i + j slot=0 type=float
__global__ void twoLoopVariables(float *g, const float *__restrict__ x,
                                 int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      atomicAdd(&g[i + j], x[threadIdx.x]);
}
