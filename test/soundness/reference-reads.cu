// A reference names memory elsewhere, so reading it between a group's sites
// is a load like a read through a pointer: where the reference may name a
// destination element (a parameter bound by the caller, a local bound to a
// buffer's element, a structured binding of one), the deferred adds would
// be missing from what is read, and the group stays as written (DW0047).
// A reference to a local's own storage, a temporary, or a scalar of a type
// no destination has (an int count, an int member read through the
// reference) is read safely.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__device__ float *G;

struct Params {
  float scale;
  int count;
};

// CHECK-DAG: group floatRef@{{[0-9]+}}: unchanged key=k type=float sites=2 [DW0047 read-may-alias
__device__ void floatRef(int k, const float &s, float w) {
  atomicAdd(&G[k * 2 + 0], w);
  const float t = s * w;
  atomicAdd(&G[k * 2 + 1], t);
}

// CHECK-DAG: group floatMember@{{[0-9]+}}: unchanged key=k type=float sites=2 [DW0047 read-may-alias
__device__ void floatMember(int k, const Params &p, float w) {
  atomicAdd(&G[k * 2 + 0], w);
  const float t = p.scale * w;
  atomicAdd(&G[k * 2 + 1], t);
}

// CHECK-DAG: group intRef#0: batched (serial; not butterfly: DW0026 key-varies) key=k type=float sites=2
__device__ void intRef(int k, const int &n, float w) {
  atomicAdd(&G[k * 2 + 0], w);
  const float t = static_cast<float>(n) * w;
  atomicAdd(&G[k * 2 + 1], t);
}

// CHECK-DAG: group intMember#0: batched (serial; not butterfly: DW0026 key-varies) key=k type=float sites=2
__device__ void intMember(int k, const Params &p, float w) {
  atomicAdd(&G[k * 2 + 0], w);
  const float t = static_cast<float>(p.count) * w;
  atomicAdd(&G[k * 2 + 1], t);
}

// CHECK-DAG: group floatThroughPointer@{{[0-9]+}}: unchanged key=k type=float sites=2 [DW0047 read-may-alias
__device__ void floatThroughPointer(int k, const Params *q, float w) {
  atomicAdd(&G[k * 2 + 0], w);
  const float t = q->scale * w;
  atomicAdd(&G[k * 2 + 1], t);
}

// CHECK-DAG: group localRefs#0: batched (serial; not butterfly: DW0026 key-varies) key=k type=float sites=2
__device__ void localRefs(int k, float w) {
  const float own = w * 2.f;
  const float &r = own;
  const float &tmp = w + 1.f;
  atomicAdd(&G[k * 2 + 0], w);
  const float t = r * tmp;
  atomicAdd(&G[k * 2 + 1], t);
}

// CHECK-DAG: group bufferRef@{{[0-9]+}}: unchanged key=k type=float sites=2 [DW0047 read-may-alias
__device__ void bufferRef(int k, float w) {
  const float &r = G[k * 2 + 1];
  atomicAdd(&G[k * 2 + 0], w);
  const float t = r * w;
  atomicAdd(&G[k * 2 + 1], t);
}

// CHECK-DAG: group binding@{{[0-9]+}}: unchanged key=k type=float sites=2 [DW0047 read-may-alias
__device__ void binding(int k, const Params *q, float w) {
  const auto &[scale, count] = *q;
  atomicAdd(&G[k * 2 + 0], w);
  const float t = scale * w;
  atomicAdd(&G[k * 2 + 1], t);
}

// An input element through a local reference, re-read after the first add:
// the input may be a destination passed twice.
// CHECK-DAG: group inputRef@{{[0-9]+}}: unchanged key=i type=float sites=2 [DW0047 read-may-alias
__global__ void inputRef(float *ga, float *gb, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float &r = x[i];
    atomicAdd(&ga[i], r);
    atomicAdd(&gb[i], r);
  }
}

__global__ void callers(const int *ids, const Params *params) {
  const int k = ids[threadIdx.x];
  floatRef(k, G[2 * k], 1.f);
  floatMember(k, params[0], 1.f);
  intRef(k, ids[0], 1.f);
  intMember(k, params[0], 1.f);
  floatThroughPointer(k, params, 1.f);
  localRefs(k, 1.f);
  bufferRef(k, 1.f);
  binding(k, params, 1.f);
}
