// A field under a test of the key alone (`if (id >= 0)`, the key `id`) is
// set in all lanes of one key or in none: a tracked field, whose address the
// reduction rebuilds under the same test, as for a grid-uniform condition.
// A test that reads anything else per lane (`v > 0`) makes it a LaneSet
// field (some lanes of one key may set it, others not).
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: grep -v "^ *//" %t.cu | %FileCheck %s --check-prefix=OUT
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK: group keyTest#0: batched (serial) key=id type=float sites=2 slots=2{{$}}
// OUT-LABEL: void keyTest(
// OUT: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<1, 2>> distwar_batch0;
// OUT: return (id >= 0 && id < n) ? (&g[id * 2]) : nullptr;
__global__ void keyTest(const int *ids, float *g, const float *x, int n) {
  const int id = ids[threadIdx.x];
  const float v = x[threadIdx.x];
  if (id >= 0 && id < n)
    atomicAdd(&g[id * 2], v);
  atomicAdd(&g[id * 2 + 1], 1.f);
}

// CHECK: group laneTest#0: batched (serial) key=id type=float sites=2 slots=2{{$}}
// OUT-LABEL: void laneTest(
// OUT: ::distwar::LaneSet<0, 1>
__global__ void laneTest(const int *ids, float *g, const float *x) {
  const int id = ids[threadIdx.x];
  const float v = x[threadIdx.x];
  if (v > 0.f)
    atomicAdd(&g[id * 2], v);
  atomicAdd(&g[id * 2 + 1], 1.f);
}
