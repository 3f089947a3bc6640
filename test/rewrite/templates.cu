// Templates: the pattern is rewritten once, with text valid for every
// instantiation; instantiations themselves are not visited.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

namespace ns {
// CHECK: DISTWAR_SITES(distwar_sites_templates_cu, "ns::accumulate#0");
template <typename T, int N>
__global__ void accumulate(T *grad, const int *ids, T v) {
  const int id = ids[blockIdx.x];
  // CHECK: ::distwar::Fields<T, N + 1, ::distwar::AlwaysSet<0, N + 1>> distwar_batch0;
  // CHECK: {{_Pragma\("|#pragma }}unroll ::distwar::kChannelUnroll<N>
  // CHECK: for (int i = 0;
  // CHECK: i < N;
  // CHECK: ++i)
  for (int i = 0; i < N; ++i)
    atomicAdd(&grad[id * (N + 1) + i], v);
  // CHECK: distwar_batch0.set(N + 0, &grad[id * (N + 1) + N], v);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_templates_cu,
  // CHECK: 0),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: T * {
  // CHECK: if (distwar_slot >= 0 && distwar_slot < N) {
  // CHECK: const int i = distwar_slot;
  // CHECK: return &grad[id * (N + 1) + i];
  // CHECK: }
  // CHECK: if (distwar_slot == N + 0)
  // CHECK: return &grad[id * (N + 1) + N];
  // CHECK: return nullptr;
  // CHECK: });
  atomicAdd(&grad[id * (N + 1) + N], v);
}
} // namespace ns
// CHECK-NOT: reduceSerial
template __global__ void ns::accumulate<float, 3>(float *, const int *, float);
template __global__ void ns::accumulate<double, 2>(double *, const int *, double);
// REPORT: templates.cu: 2 atomic site(s), 1 group(s), rewritten
// REPORT: group ns::accumulate#0: batched (serial) key=id type=T sites=2 slots=N + 1
