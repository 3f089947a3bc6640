// Indices computed by pure device functions are opaque keys: calls of one
// function on the same arguments, constants aside, are fields of one
// primitive. Calls differing in a constant need a proven warp-uniform key.
// Buffers may be members of members of a by-value parameter. A key that reads
// the struct the group stores through is refused (conservative: the sites
// write through its pointers, which a method could read).
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -

__device__ int texel(int x, int y, int c) { return (y * 16 + x) * 4 + c; }
__device__ int bump(int *counter) { return (*counter)++; }
struct Grid {
  float *grad;
  int n;
  __device__ int at(int i, int c) const { return i * n + c; }
};
struct Params {
  Grid grid;
  const int *ids;
};

__global__ void uniformTexel(Params p, float v) {
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < p.grid.n; ++x) {
      atomicAdd(p.grid.grad + texel(x, y, 0), v);
      atomicAdd(p.grid.grad + texel(x, y, 1), 2 * v);
    }
}
// CHECK-DAG: group uniformTexel#0: batched (butterfly-uniform) key=texel(x, y, 0) type=float sites=2 slots=2

__global__ void laneTexel(Params p, float v) {
  int i = p.ids[threadIdx.x];
  atomicAdd(&p.grid.grad[p.grid.at(i, 0)], v);
  atomicAdd(&p.grid.grad[p.grid.at(i, 1)], v);
}
// CHECK-DAG: group laneTexel@{{[0-9]+}}: unchanged {{.*}}[DW0038 opaque-key-varies

__global__ void sameCall(Params p, float v) {
  int i = p.ids[threadIdx.x];
  atomicAdd(&p.grid.grad[p.grid.at(i, 0)], v);
  atomicAdd(&p.grid.grad[p.grid.at(i, 0)], v);
}
// CHECK-DAG: group sameCall@{{[0-9]+}}: unchanged {{.*}}[DW0014 key-modified

__global__ void impureIndex(float *g, int *counter, float v) {
  atomicAdd(&g[bump(counter)], v);
}
// CHECK-DAG: unchanged atomicAdd in impureIndex {{.*}}[DW0019 key-side-effects

__global__ void nestedWritten(Params p, float v) {
  p.grid.grad = nullptr;
  atomicAdd(&p.grid.grad[p.ids[0]], v);
}
// CHECK-DAG: unchanged atomicAdd in nestedWritten {{.*}}[DW0006 buffer-not-uniform
