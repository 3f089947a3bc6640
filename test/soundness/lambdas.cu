// Calls are followed into their bodies: a lambda names its captures by the
// kernel's own variables, so one that changes the key, shrinks a count or
// reads a destination is seen doing so wherever it is called. A helper that
// reads through a global pointer or a struct argument's pointer member may
// read a destination.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK-DAG: group rekeyLambda@{{[0-9]+}}: unchanged key=id type=float sites=3 [DW0014 key-modified
__global__ void rekeyLambda(float *g, const int *ids, const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    int id = ids[j];
    auto rekey = [&] { id = ids[j + 1]; };
    const float v = x[tid * 64 + j];
    atomicAdd(&g[id * 3 + 0], v);
    rekey();
    atomicAdd(&g[id * 3 + 1], v);
    atomicAdd(&g[id * 3 + 2], v);
  }
}

// A lambda passed to a helper that calls it: the helper's body is followed.
// CHECK-DAG: group rekeyThroughHelper@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0014 key-modified
template <class F> __device__ void invoke(F f) { f(); }
__global__ void rekeyThroughHelper(float *g, const int *ids, const float *x,
                                   int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    int id = ids[j];
    const float v = x[tid * 64 + j];
    atomicAdd(&g[id * 2 + 0], v);
    invoke([&] { id += tid & 1; });
    atomicAdd(&g[id * 2 + 1], v);
  }
}

// CHECK-DAG: group readThroughCapture@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0010 buffer-accessed-between
__global__ void readThroughCapture(float *ga, float *gb, const int *ids,
                                   const float *x, float *out, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    auto peek = [&] { return ga[id]; };
    const float v = x[tid * 64 + j];
    atomicAdd(&ga[id], v);
    const float r = peek();
    atomicAdd(&gb[id], v);
    out[tid] += r;
  }
}

// CHECK-DAG: group readThroughGlobal@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0047 read-may-alias
__device__ float *gbuf;
__device__ float peekGlobal(int i) { return gbuf[i]; }
__global__ void readThroughGlobal(float *ga, float *gb, const int *ids,
                                  const float *x, float *out, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[tid * 64 + j];
    atomicAdd(&ga[id], v);
    const float r = peekGlobal(id);
    atomicAdd(&gb[id], v);
    out[tid] += r;
  }
}

// CHECK-DAG: group readThroughStruct@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0047 read-may-alias
struct Bufs {
  float *a;
  float *b;
};
__device__ float peekStruct(Bufs s, int i) { return s.a[i]; }
__global__ void readThroughStruct(Bufs s, float *ga, float *gb, const int *ids,
                                  const float *x, float *out, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[tid * 64 + j];
    atomicAdd(&ga[id], v);
    const float r = peekStruct(s, id);
    atomicAdd(&gb[id], v);
    out[tid] += r;
  }
}

// A lambda that returns a captured per-lane value is no function of its
// arguments: the key varies.
// CHECK-DAG: group keyLambda#0: batched (serial; not butterfly: DW0026 key-varies) key=id
__global__ void keyLambda(float *ga, float *gb, const int *ids, const float *x,
                          int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    int base = ids[j];
    auto keyOf = [&] { return base + (tid & 1); };
    const int id = keyOf();
    const float v = x[tid * 64 + j];
    atomicAdd(&ga[id], v);
    atomicAdd(&gb[id], v);
  }
}

// A lambda that shrinks the channel count inside the channel loop: the
// count is not constant, the loop stays as written.
// CHECK-DAG: unchanged atomicAdd in shrinkCount {{.*}}[DW0008 channel-loop
__global__ void shrinkCount(float *g, const int *ids, const float *x, int n,
                            int m) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int c = m;
  auto shrink = [&] { --c; };
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    for (int ch = 0; ch < c; ch++) {
      atomicAdd(&g[id * 8 + ch], x[tid * 64 + j] * ch);
      if (ch == 1)
        shrink();
    }
  }
}

// A lambda that only reads what it captures changes nothing: batched.
// CHECK-DAG: group readOnlyLambda#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id
__global__ void readOnlyLambda(float *ga, float *gb, const int *ids,
                               const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float v = x[tid * 64 + j];
    auto scale = [&](float s) { return s * v; };
    atomicAdd(&ga[id], scale(2.f));
    atomicAdd(&gb[id], scale(3.f));
  }
}
