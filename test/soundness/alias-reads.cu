// Batching defers each atomic to the group's end, so memory read between the
// sites must not be a destination: the read would miss this thread's own add.
// Reads through a name of the destination, through a local that holds it, or
// through any pointer not declared unaliased keep the group plain (DW0010,
// DW0047): `const T *` alone proves nothing, the caller may pass one buffer
// twice. Shared, local and constant memory, `T *__restrict__` inputs, and any
// input when every destination is `__restrict__` do not.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK: alias-reads.cu: 18 atomic site(s), 9 group(s), rewritten

// CHECK-DAG: group throughLocal@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0047 read-may-alias
__global__ void throughLocal(float *ga, float *gb, const int *ids,
                             const float *x, int *flag, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = ga;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * 64 + j];
    const int id = ids[j];
    atomicAdd(&ga[id], v);
    const float r = p[id];
    atomicAdd(&gb[id], v);
    flag[tid] += (r >= v) ? 1 : 1000;
  }
}

// CHECK-DAG: group directName@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0010 buffer-accessed-between
__global__ void directName(float *ga, float *gb, int id, float v) {
  atomicAdd(&ga[id], v);
  const float r = ga[id + 1];
  atomicAdd(&gb[id], r);
}

// A writable kernel parameter may be passed the destination's pointer.
// CHECK-DAG: group otherParam@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0047 read-may-alias
__global__ void otherParam(float *ga, float *gb, float *scratch, int id,
                           float v) {
  atomicAdd(&ga[id], v);
  const float r = scratch[id];
  atomicAdd(&gb[id], r);
}

// A __device__ function's pointer parameter may point anywhere.
// CHECK-DAG: group viaHelper@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0047 read-may-alias
__device__ float load(const float *p, int i) {
  return *(p + i);
}
__global__ void viaHelper(float *ga, float *gb, int id, float v) {
  float *alias = ga + 1;
  atomicAdd(&ga[id], v);
  const float r = load(alias, id);
  atomicAdd(&gb[id], r);
}

// A read-only input may still be the destination passed a second time.
// CHECK-DAG: group constInput@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0047 read-may-alias
__global__ void constInput(float *ga, float *gb, const float *in, int id,
                           float v) {
  atomicAdd(&ga[id], v);
  const float r = in[id];
  atomicAdd(&gb[id], r);
}

// Destinations declared unaliased: nothing else reaches what they change.
// CHECK-DAG: group restrictDestinations#0: batched (serial) key=id type=float sites=2 slots=2
__global__ void restrictDestinations(float *__restrict__ ga,
                                     float *__restrict__ gb, const float *in,
                                     int id, float v) {
  atomicAdd(&ga[id], v);
  const float r = in[id];
  atomicAdd(&gb[id], r);
}

// Unaliased inputs, shared and local memory, constant memory, a member array
// of a by-value parameter: batched.
__constant__ float kWeights[4];
struct Params {
  float scale[2];
  const float *__restrict__ bias;
};
// CHECK-DAG: group inputs#0: batched (serial) key=id type=float sites=2 slots=2
__global__ void inputs(float *ga, float *gb, const float *__restrict__ in,
                       float *__restrict__ un, const Params p, int id,
                       float v) {
  __shared__ float s[32];
  float local[2] = {v, v};
  s[threadIdx.x % 32] = v;
  __syncthreads();
  atomicAdd(&ga[id], v);
  const float r = in[id] + un[id] + s[id % 32] + local[id & 1] +
                  kWeights[id & 3] + p.scale[id & 1] + p.bias[id];
  atomicAdd(&gb[id], r);
}

// Another group's buffer, not this one's, read between the sites: batched.
// CHECK-DAG: group twoGroups#0: batched (serial) key=id type=float sites=2 slots=2
// CHECK-DAG: group twoGroups#1: batched (serial) key=k type=float sites=2 slots=2
__global__ void twoGroups(float *ga, float *gb, float *gc, float *gd,
                          const int *in, float v) {
  const int id = in[threadIdx.x], k = in[threadIdx.x + 1];
  atomicAdd(&ga[id], v);
  atomicAdd(&gb[id], v);
  atomicAdd(&gc[k], v);
  atomicAdd(&gd[k], v);
}
