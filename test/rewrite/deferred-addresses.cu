// Deferred addresses (GENERATED_CODE.md, sections 2 and 6): a group whose
// addresses can be rebuilt from the key at the batched call gets a values-only
// ::distwar::Fields batch and an addrOf lambda as the call's last argument;
// the other groups keep ::distwar::Batch, which captures each address at its
// site.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -

// CHECK: #include <distwar/runtime.cuh> // distwar-rewrite: batched gradient reductions
// CHECK: DISTWAR_SITES(
// CHECK: distwar_sites_deferred_addresses_cu,
// CHECK: "direct#0",
// CHECK: "channels#0",
// CHECK: "conditional#0",
// CHECK: "butterfly#0",
// CHECK: "macroSite#0",
// CHECK: "localStride#0",
// CHECK: "opaqueKeys#0");
// CHECK-NEXT: #line 1 "{{.*}}deferred-addresses.cu"

#define ADD2(buf, i, v)                                                        \
  atomicAdd(&buf[i].x, v);                                                     \
  atomicAdd(&buf[i].y, v);

// (a) Direct fields and vector members: the key as written (serial output).
// CHECK: ::distwar::Fields<float, 3, ::distwar::AlwaysSet<0, 3>> distwar_batch0;
// CHECK: distwar_batch0.set(0, &da[id], v);
// CHECK-NEXT: distwar_batch0.set(1, &dxy[id].x, v);
// CHECK: distwar_batch0.set(2, &dxy[id].y, -v);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: id,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_deferred_addresses_cu,
// CHECK: 0),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &da[id];
// CHECK: if (distwar_slot == 1)
// CHECK: return &dxy[id].x;
// CHECK: if (distwar_slot == 2)
// CHECK: return &dxy[id].y;
// CHECK: return nullptr;
// CHECK: });
__global__ void direct(float *da, float2 *dxy, const int *ids, float v) {
  int id = ids[threadIdx.x];
  atomicAdd(&da[id], v);
  atomicAdd(&dxy[id].x, v);
  atomicAdd(&dxy[id].y, -v);
}

// (b) A channel loop with a non-zero lower bound: the lambda declares the
// channel variable from the slot.
// CHECK: ::distwar::Fields<float,
// CHECK: (4 - 1) + 1,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: ((4 - 1) + 1)>>
// CHECK: distwar_batch0;
// CHECK: {{_Pragma\("|#pragma }}unroll
// CHECK: for (int ch = 1;
// CHECK: ch < 4;
// CHECK: ch++)
// CHECK: distwar_batch0.set(
// CHECK: (ch - 1),
// CHECK: &dc[id * 4 + ch],
// CHECK: v * ch);
// CHECK: distwar_batch0.set((4 - 1) + 0, &dop[id], v);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: id,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_deferred_addresses_cu,
// CHECK: 1),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot >= 0 && distwar_slot < (4 - 1)) {
// CHECK: const int ch = distwar_slot + 1;
// CHECK: return &dc[id * 4 + ch];
// CHECK: }
// CHECK: if (distwar_slot == (4 - 1) + 0)
// CHECK: return &dop[id];
// CHECK: return nullptr;
// CHECK: });
__global__ void channels(float *dc, float *dop, const int *ids, float v) {
  int id = ids[threadIdx.x];
  for (int ch = 1; ch < 4; ch++)
    atomicAdd(&dc[id * 4 + ch], v * ch);
  atomicAdd(&dop[id], v);
}

// (c) A field under a grid-uniform condition: nullptr when it does not hold.
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 1>> distwar_batch0;
// CHECK: distwar_batch0.set(0, &ga[id], v);
// CHECK: if (!ortho)
// CHECK: distwar_batch0.set(1, &gb[id], 2 * v);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: id,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_deferred_addresses_cu,
// CHECK: 2),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[id];
// CHECK: if (distwar_slot == 1)
// CHECK: return (!ortho) ? (&gb[id]) : nullptr;
// CHECK: return nullptr;
// CHECK: });
__global__ void conditional(float *ga, float *gb, const int *ids, bool ortho,
                            float v) {
  int id = ids[threadIdx.x];
  atomicAdd(&ga[id], v);
  if (!ortho)
    atomicAdd(&gb[id], 2 * v);
}

// (d) Butterfly output: the key is replaced by the captured distwar_key0, so
// gid need not be live at the call.
// CHECK: for (int j = 0;
// CHECK: j < n;
// CHECK: j++) {
// CHECK: ::distwar::Fields<float, 3, ::distwar::AlwaysSet<0, 3>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: int gid = list[j];
// CHECK-NEXT: distwar_batch0.set(0, &ga[gid], v);
// CHECK-NEXT: distwar_batch0.set(1, &gxy[gid].x, v);
// CHECK: distwar_batch0.set(2, &gxy[gid].y, v);
// CHECK: distwar_key0 = gid;
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: true,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_deferred_addresses_cu,
// CHECK: 3),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gxy[distwar_key0].x;
// CHECK: if (distwar_slot == 2)
// CHECK: return &gxy[distwar_key0].y;
// CHECK: return nullptr;
// CHECK: });
__global__ void butterfly(float *ga, float2 *gxy, const int *list, int n,
                          float v) {
  for (int j = 0; j < n; j++) {
    int gid = list[j];
    atomicAdd(&ga[gid], v);
    atomicAdd(&gxy[gid].x, v);
    atomicAdd(&gxy[gid].y, v);
  }
}

// (e) Sites written by a macro keep Batch: their text is the expansion.
// CHECK: ::distwar::Batch<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: distwar_batch0.set(0, &gxy[id].x, v);
// CHECK: distwar_batch0.set(1, &gxy[id].y, v);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: id,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_deferred_addresses_cu,
// CHECK: 4));
__global__ void macroSite(float2 *gxy, const int *ids, float v) {
  int id = ids[threadIdx.x];
  ADD2(gxy, id, v)
}

// (f) An address reads a local other than the key (the stride) and is not
// repeated at the call: Batch.
// CHECK: ::distwar::Batch<float, 3 + 1, ::distwar::AlwaysSet<0, 3 + 1>> distwar_batch0;
// CHECK: {{_Pragma\("|#pragma }}unroll
// CHECK: for (int c = 0;
// CHECK: c < 3;
// CHECK: c++)
// CHECK: distwar_batch0.set(
// CHECK: c,
// CHECK: &buf[id * stride + c],
// CHECK: v * c);
// CHECK: distwar_batch0.set(3 + 0, &buf[id * stride + 3], v);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: id,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_deferred_addresses_cu,
// CHECK: 5));
__global__ void localStride(float *buf, const int *ids, float v) {
  int id = ids[threadIdx.x];
  const int stride = 4;
  for (int c = 0; c < 3; c++)
    atomicAdd(&buf[id * stride + c], v * c);
  atomicAdd(&buf[id * stride + 3], v);
}

// (g) Opaque keys that differ in a constant argument are one primitive only
// through the first site's captured key, which is not the second site's:
// Batch (a strip of the uniform-key loop, section 12, keeps it too).
__device__ int texel(int x, int y, int c) { return (y * 16 + x) * 4 + c; }

// CHECK: auto distwar_strips0 = [&](auto distwar_full0) {
// CHECK: for (int x = 0;
// CHECK: x < w;
// CHECK: x += ::distwar::kStripLaps) {
// CHECK: ::distwar::Batch<float, 2, ::distwar::AlwaysSet<0, 2>>
// CHECK: distwar_batch0;
// CHECK: distwar_batch0.set(0, grad + texel(x, y, 0), v);
// CHECK: distwar_batch0.set(1, grad + texel(x, y, 1), 2 * v);
// CHECK: distwar_strip0.keep(distwar_lap0, distwar_batch0);
// CHECK: ::distwar::reduceStrip(distwar_strip0, distwar_full0);
// CHECK: ::distwar::runStrips(
// CHECK: DISTWAR_SITE_THRESHOLD(distwar_sites_deferred_addresses_cu, 6),
// CHECK: distwar_strips0);
__global__ void opaqueKeys(float *grad, int w, float v) {
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < w; ++x) {
      atomicAdd(grad + texel(x, y, 0), v);
      atomicAdd(grad + texel(x, y, 1), 2 * v);
    }
}

// REPORT: group direct#0: batched (serial; not butterfly: DW0026 key-varies) key=id type=float sites=3 slots=3
// REPORT: group channels#0: batched (serial; not butterfly: DW0026 key-varies) key=id type=float sites=2 slots=(4 - 1) + 1
// REPORT: group conditional#0: batched (serial; not butterfly: DW0026 key-varies) key=id type=float sites=2 slots=2
// REPORT: group butterfly#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=gid type=float sites=3 slots=3
// REPORT: group macroSite#0: batched (serial; not butterfly: DW0026 key-varies) key=id type=float sites=2 slots=2
// REPORT: group localStride#0: batched (serial; not butterfly: DW0026 key-varies) key=id type=float sites=2 slots=3 + 1
// REPORT: group opaqueKeys#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=texel(x, y, 0) type=float sites=2 slots=2
