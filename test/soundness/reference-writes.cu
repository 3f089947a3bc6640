// A method or function that returns a reference (or a pointer) into an
// object lets a later store change that object: `p.key() += d`,
// `key_of(p) = k`, `acc.at(0) = k` write the key as surely as `p.k = k`.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

struct P {
  int k;
  float *buf;
  __device__ int &key() { return k; }
  __device__ float *&ptr() { return buf; }
};
__device__ int &key_of(P &p) { return p.k; }

// CHECK-DAG: group methodKey@{{[0-9]+}}: unchanged key=p.k type=float sites=3 [DW0014 key-modified
__global__ void methodKey(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    P p{ids[j], g};
    const float v = x[tid * 64 + j];
    atomicAdd(&g[p.k * 3 + 0], v);
    p.key() += tid & 3;
    atomicAdd(&g[p.k * 3 + 1], v);
    atomicAdd(&g[p.k * 3 + 2], v);
  }
}

// CHECK-DAG: group freeKey@{{[0-9]+}}: unchanged key=p.k type=float sites=3 [DW0014 key-modified
__global__ void freeKey(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    P p{ids[j], g};
    const float v = x[tid * 64 + j];
    atomicAdd(&g[p.k * 3 + 0], v);
    key_of(p) = ids[j] + (tid & 1);
    atomicAdd(&g[p.k * 3 + 1], v);
    atomicAdd(&g[p.k * 3 + 2], v);
  }
}

// Written before the sites through the method: the key is not uniform.
// CHECK-DAG: group keyBefore#0: batched (serial; not butterfly: DW0026 key-varies) key=p.k
__global__ void keyBefore(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    P p{ids[j], g};
    p.key() += tid & 1;
    const float v = x[tid * 64 + j];
    atomicAdd(&g[p.k * 2 + 0], v);
    atomicAdd(&g[p.k * 2 + 1], v);
  }
}

struct Acc {
  int v[4];
  __device__ int &at(int i) { return v[i]; }
};
// CHECK-DAG: group accAt@{{[0-9]+}}: unchanged key=a.v[0] type=float sites=2 [DW0014 key-modified
__global__ void accAt(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    Acc a{{ids[j], 0, 0, 0}};
    const float v = x[tid * 64 + j];
    atomicAdd(&g[a.v[0] * 2 + 0], v);
    a.at(0) = ids[j] + (tid & 1);
    atomicAdd(&g[a.v[0] * 2 + 1], v);
  }
}
