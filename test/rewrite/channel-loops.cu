// Constant-trip channel loops: literal, constexpr, enumerator, template
// parameter, non-zero lower bound, existing unroll pragma.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

constexpr int kChannels = 4;
enum { NumSH = 2 };

__global__ void literal(float *dc, float *dop, int id, float v) {
  // CHECK: ::distwar::Fields<float,
  // CHECK: 3 + 1,
  // CHECK: ::distwar::AlwaysSet<0,
  // CHECK: 3 + 1>>
  // CHECK: distwar_batch0;
  // CHECK: {{_Pragma\("|#pragma }}unroll
  // CHECK: for (int ch = 0;
  // CHECK: ch < 3;
  // CHECK: ch++) {
  for (int ch = 0; ch < 3; ch++) {
    // CHECK-NEXT: distwar_batch0.set(ch, &dc[id * 3 + ch], v * ch);
    atomicAdd(&dc[id * 3 + ch], v * ch);
  }
  // CHECK: distwar_batch0.set(3 + 0, &dop[id], v);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_channel_loops_cu,
  // CHECK: 0),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: float * {
  // CHECK: if (distwar_slot >= 0 && distwar_slot < 3) {
  // CHECK: const int ch = distwar_slot;
  // CHECK: return &dc[id * 3 + ch];
  // CHECK: }
  // CHECK: if (distwar_slot == 3 + 0)
  // CHECK: return &dop[id];
  // CHECK: return nullptr;
  // CHECK: });
  atomicAdd(&dop[id], v);
}

__global__ void named(float *dc, float *dsh, int id, float v) {
  // CHECK: ::distwar::Fields<float,
  // CHECK: kChannels + (NumSH - 1),
  // CHECK: ::distwar::AlwaysSet<0,
  // CHECK: (kChannels + (NumSH - 1))>>
  // CHECK: distwar_batch0;
  // CHECK: {{_Pragma\("|#pragma }}unroll
  // CHECK: for (int c = 0;
  // CHECK: c < kChannels;
  // CHECK: ++c)
  for (int c = 0; c < kChannels; ++c)
    // CHECK: distwar_batch0.set(
    // CHECK: c,
    // CHECK: &dc[kChannels * id + c],
    // CHECK: v);
    atomicAdd(&dc[kChannels * id + c], v);
  // CHECK-NEXT: #pragma unroll
#pragma unroll
  // CHECK-NEXT: for (int s = 1; s < NumSH; s += 1)
  for (int s = 1; s < NumSH; s += 1)
    // CHECK: distwar_batch0.set(kChannels + (s - 1), &dsh[id * NumSH + s], v);
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch0,
    // CHECK: id,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_channel_loops_cu,
    // CHECK: 1),
    // CHECK: [&](int distwar_slot) ->
    // CHECK: float * {
    // CHECK: if (distwar_slot >= 0 && distwar_slot < kChannels) {
    // CHECK: const int c = distwar_slot;
    // CHECK: return &dc[kChannels * id + c];
    // CHECK: }
    // CHECK: if (distwar_slot >= kChannels &&{{[[:space:]]+}}distwar_slot < kChannels + (NumSH - 1)) {
    // CHECK: const int s = distwar_slot - kChannels + 1;
    // CHECK: return &dsh[id * NumSH + s];
    // CHECK: }
    // CHECK: return nullptr;
    // CHECK: });
    atomicAdd(&dsh[id * NumSH + s], v);
}

template <int C>
__global__ void templated(float *dc, float *dop, int id, float v) {
  // CHECK: ::distwar::Fields<float,
  // CHECK: C + 1,
  // CHECK: ::distwar::AlwaysSet<0,
  // CHECK: C + 1>>
  // CHECK: distwar_batch0;
  // CHECK: {{_Pragma\("|#pragma }}unroll ::distwar::kChannelUnroll<C>
  // CHECK: for (int ch = 0;
  // CHECK: ch < C;
  // CHECK: ch++) {
  for (int ch = 0; ch < C; ch++) {
    // CHECK-NEXT: distwar_batch0.set(ch, &dc[id * C + ch], v);
    atomicAdd(&dc[id * C + ch], v);
  }
  // CHECK: distwar_batch0.set(C + 0, &dop[id], v);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_channel_loops_cu,
  // CHECK: 2),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: float * {
  // CHECK: if (distwar_slot >= 0 && distwar_slot < C) {
  // CHECK: const int ch = distwar_slot;
  // CHECK: return &dc[id * C + ch];
  // CHECK: }
  // CHECK: if (distwar_slot == C + 0)
  // CHECK: return &dop[id];
  // CHECK: return nullptr;
  // CHECK: });
  atomicAdd(&dop[id], v);
}
template __global__ void templated<3>(float *, float *, int, float);
template __global__ void templated<16>(float *, float *, int, float);
