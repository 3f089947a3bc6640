// Groups a person would batch: what lies between the sites only computes or
// stores to registers (a struct assignment, a threadIdx read) and reads
// inputs declared unaliased (soundness/alias-reads.cu), the buffer is
// a cast of an untyped struct member with an index method as key, the group
// is a lone channel loop, the condition reads threadIdx.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK-DAG: group structAssign#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=3 slots=3
__global__ void structAssign(float3 *dmean, const int *ids,
                             const float2 *__restrict__ planes,
                             const float *__restrict__ g, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    float2 plane;
    atomicAdd(&dmean[id].x, g[j]);
    plane = planes[j];
    atomicAdd(&dmean[id].y, g[j] * plane.x);
    atomicAdd(&dmean[id].z, g[j] * plane.y);
  }
}

// CHECK-DAG: group threadIdxRead#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=key type=float sites=2 slots=2
__global__ void threadIdxRead(float2 *g, const int *id,
                              const float *__restrict__ v, int n) {
  for (int j = 0; j < n; j++) {
    const int key = id[j];
    atomicAdd(&g[key].x, v[j]);
    atomicAdd(&g[key].y, v[j * 32 + threadIdx.x % 32]);
  }
}

// A lane-dependent condition without side effects: the butterfly's reached
// flag, not DW0045.
// CHECK-DAG: group threadIdxCondition#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=key type=float sites=2 slots=2
__global__ void threadIdxCondition(float2 *g, const int *id, const float *v,
                                   int n, unsigned limit) {
  for (int j = 0; j < n; j++) {
    const int key = id[j];
    const float a = v[j];
    if (threadIdx.x < limit) {
      atomicAdd(&g[key].x, a);
      atomicAdd(&g[key].y, 2.f * a);
    }
  }
}

// nvdiffrec's cubemap shape: a void * member of a by-value parameter, cast.
struct Tensor {
  void *val;
  void *d_val;
  int dims[4];
  __device__ int idx(int s, int y, int x, int c) const {
    return ((s * dims[1] + y) * dims[2] + x) * dims[3] + c;
  }
};
struct Params {
  Tensor cubemap;
  Tensor out;
};
// CHECK-DAG: group castMember#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=p.cubemap.idx(0, y, x, 0) type=float sites=3 slots=3
__global__ void castMember(Params p) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  float3 grad = make_float3(((float *)p.out.val)[px], 1.f, 2.f);
  for (int y = 0; y < p.cubemap.dims[1]; ++y)
    for (int x = 0; x < p.cubemap.dims[2]; ++x) {
      float w = 0.5f * (x + y + px);
      atomicAdd((float *)p.cubemap.d_val + p.cubemap.idx(0, y, x, 0), grad.x * w);
      atomicAdd((float *)p.cubemap.d_val + p.cubemap.idx(0, y, x, 1), grad.y * w);
      atomicAdd((float *)p.cubemap.d_val + p.cubemap.idx(0, y, x, 2), grad.z * w);
    }
}

// A group that is only a channel loop on a key read from shared memory at
// the loop counter: one uniform butterfly per iteration.
// CHECK-DAG: group channelOnly#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=O
template <int O>
__global__ void channelOnly(float *dobj, const int *ids, const float *a, int n) {
  __shared__ int sid[256];
  for (int base = 0; base < n; base += 256) {
    __syncthreads();
    sid[threadIdx.x] = ids[base + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < 256; j++) {
      const int id = sid[j];
      const float g = a[(base + j) * 256 + threadIdx.x];
      for (int ch = 0; ch < O; ch++) {
        atomicAdd(&dobj[id * O + ch], g * ch);
      }
    }
  }
}
template __global__ void channelOnly<16>(float *, const int *, const float *,
                                         int);
