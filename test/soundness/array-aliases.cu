// A local array that decays to a pointer other than to be indexed can be
// changed through that pointer: stores through any pointer then may change
// it, and a key read from it is neither uniform nor unchanged.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK-DAG: group aliasBefore#0: batched (serial; not butterfly: DW0026 key-varies) key=k[0]
__global__ void aliasBefore(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    int k[2];
    k[0] = ids[j];
    k[1] = 0;
    int *pk = k;
    if (tid & 1)
      pk[0] = 40;
    const float v = x[tid * 64 + j];
    atomicAdd(&g[k[0] * 2 + 0], v);
    atomicAdd(&g[k[0] * 2 + 1], v);
  }
}

// CHECK-DAG: group aliasBetween@{{[0-9]+}}: unchanged key=k[0] type=float sites=2 [DW0014 key-modified
__global__ void aliasBetween(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    int k[2];
    k[0] = ids[j];
    k[1] = 0;
    int *pk = k;
    const float v = x[tid * 64 + j];
    atomicAdd(&g[k[0] * 2 + 0], v);
    pk[0] = ids[j] + (tid & 1);
    atomicAdd(&g[k[0] * 2 + 1], v);
  }
}

// Indexed in place only: no alias, and no write between the sites.
// CHECK-DAG: group indexedOnly#0: batched (serial{{.*}}) key=k[0]
__global__ void indexedOnly(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    int k[2];
    k[0] = ids[j];
    k[1] = k[0] + 1;
    const float v = x[tid * 64 + j];
    atomicAdd(&g[k[0] * 2 + 0], v);
    atomicAdd(&g[k[0] * 2 + 1], v);
  }
}
