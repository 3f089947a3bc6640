// An address kept in a local pointer (`float *p = grad + i * 2;`) is the
// sum written out: `atomicAdd(p, v)` and `atomicAdd(grad + i * 2, v)` are
// decided alike, keyed by `i`. A pointer that changes, or an index variable
// that does, keeps the pointer as its key.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK-DAG: group viaLocal#0: batched (serial; not butterfly: DW0026 key-varies) key=i type=float sites=2 slots=2
// CHECK-DAG: group written#0: batched (serial; not butterfly: DW0026 key-varies) key=i type=float sites=2 slots=2
// CHECK-DAG: batched atomicAdd in viaLocal buffer=base key=i field=[*2+1] slot=1 type=float group=viaLocal#0
// CHECK-DAG: group oneViaLocal#0: batched (serial; not butterfly: DW0026 key-varies) key=i type=float sites=1 slots=1
// CHECK-DAG: group oneWritten#0: batched (serial; not butterfly: DW0026 key-varies) key=i type=float sites=1 slots=1
// CHECK-DAG: group moved@{{[0-9]+}}: unchanged key=p type=float sites=1 [DW0051 element-key-varies
// CHECK-DAG: group rekeyed@{{[0-9]+}}: unchanged key=p type=float sites=1 [DW0051 element-key-varies

__global__ void viaLocal(float *base, const int *ids,
                         const float *__restrict__ x, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int i = ids[t * n + j];
    const float v = x[j * 256 + threadIdx.x];
    float *p = base + i * 2;
    atomicAdd(p, v);
    atomicAdd(p + 1, 2.f * v);
  }
}

__global__ void written(float *base, const int *ids,
                        const float *__restrict__ x, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int i = ids[t * n + j];
    const float v = x[j * 256 + threadIdx.x];
    atomicAdd(base + i * 2, v);
    atomicAdd(base + i * 2 + 1, 2.f * v);
  }
}

__global__ void oneViaLocal(float *base, const int *ids,
                            const float *__restrict__ x, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int i = ids[t * n + j];
    float *p = &base[i];
    atomicAdd(p, x[j * 256 + threadIdx.x]);
  }
}

__global__ void oneWritten(float *base, const int *ids,
                           const float *__restrict__ x, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int i = ids[t * n + j];
    atomicAdd(&base[i], x[j * 256 + threadIdx.x]);
  }
}

// The pointer moves after its declaration.
__global__ void moved(float *base, const int *ids,
                      const float *__restrict__ x, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int i = ids[t * n + j];
    float *p = base + i;
    if (x[j] > 0.5f)
      p += 1;
    atomicAdd(p, x[j * 256 + threadIdx.x]);
  }
}

// The index changes after the pointer was made of it.
__global__ void rekeyed(float *base, const int *ids,
                        const float *__restrict__ x, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    int i = ids[t * n + j];
    float *p = base + i;
    i = ids[j];
    atomicAdd(p, x[j * 256 + threadIdx.x] + i);
  }
}
