// Constant-trip channel loops: literal, constexpr, enumerator, template
// parameter, non-zero lower bound, existing unroll pragma.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

constexpr int kChannels = 4;
enum { NumSH = 2 };

__global__ void literal(float *dc, float *dop, int id, float v) {
  // CHECK: ::distwar::Fields<float, 3 + 1, ::distwar::AlwaysSet<0, 3 + 1>> distwar_batch0; _Pragma("unroll") for (int ch = 0; ch < 3; ch++) {
  for (int ch = 0; ch < 3; ch++) {
    // CHECK-NEXT: distwar_batch0.set(0 + ch, &dc[id * 3 + ch], v * ch);
    atomicAdd(&dc[id * 3 + ch], v * ch);
  }
  // CHECK: distwar_batch0.set(3 + 0, &dop[id], v); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_channel_loops_cu, 0), [&](int distwar_slot) -> float * { if (distwar_slot >= 0 && distwar_slot < 0 + 3) { const int ch = distwar_slot - (0) + (0); return &dc[id * 3 + ch]; } if (distwar_slot == 3 + 0) return &dop[id]; return nullptr; });
  atomicAdd(&dop[id], v);
}

__global__ void named(float *dc, float *dsh, int id, float v) {
  // CHECK: ::distwar::Fields<float, kChannels + (NumSH - 1), ::distwar::AlwaysSet<0, (kChannels + (NumSH - 1))>> distwar_batch0; _Pragma("unroll") for (int c = 0; c < kChannels; ++c)
  for (int c = 0; c < kChannels; ++c)
    // CHECK-NEXT: distwar_batch0.set(0 + c, &dc[kChannels * id + c], v);
    atomicAdd(&dc[kChannels * id + c], v);
  // CHECK-NEXT: #pragma unroll
#pragma unroll
  // CHECK-NEXT: for (int s = 1; s < NumSH; s += 1)
  for (int s = 1; s < NumSH; s += 1)
    // CHECK-NEXT: distwar_batch0.set(kChannels + (s - 1), &dsh[id * NumSH + s], v); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_channel_loops_cu, 1), [&](int distwar_slot) -> float * { if (distwar_slot >= 0 && distwar_slot < 0 + kChannels) { const int c = distwar_slot - (0) + (0); return &dc[kChannels * id + c]; } if (distwar_slot >= kChannels && distwar_slot < kChannels + (NumSH - 1)) { const int s = distwar_slot - (kChannels) + (1); return &dsh[id * NumSH + s]; } return nullptr; });
    atomicAdd(&dsh[id * NumSH + s], v);
}

template <int C>
__global__ void templated(float *dc, float *dop, int id, float v) {
  // CHECK: ::distwar::Fields<float, C + 1, ::distwar::AlwaysSet<0, C + 1>> distwar_batch0; _Pragma("unroll ::distwar::kChannelUnroll<C>") for (int ch = 0; ch < C; ch++) {
  for (int ch = 0; ch < C; ch++) {
    // CHECK-NEXT: distwar_batch0.set(0 + ch, &dc[id * C + ch], v);
    atomicAdd(&dc[id * C + ch], v);
  }
  // CHECK: distwar_batch0.set(C + 0, &dop[id], v); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_channel_loops_cu, 2), [&](int distwar_slot) -> float * { if (distwar_slot >= 0 && distwar_slot < 0 + C) { const int ch = distwar_slot - (0) + (0); return &dc[id * C + ch]; } if (distwar_slot == C + 0) return &dop[id]; return nullptr; });
  atomicAdd(&dop[id], v);
}
template __global__ void templated<3>(float *, float *, int, float);
template __global__ void templated<16>(float *, float *, int, float);
