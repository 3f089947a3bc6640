// Divergence converted to an active flag: every lane of the warp reaches the
// butterfly; statements keep their per-lane behaviour under the flag.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %FileCheck %s --check-prefix=SITES < %t.txt
// RUN: %if format-compact %{ test $(grep -c '' %s) -eq $(tail -n +4 %t.cu | grep -c '') %}
// RUN: %check-line-map %s %t.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// Continues in nested ifs; a declaration used after the reduction is hoisted;
// the statements after the reduction run under the flag again.
__global__ void continues(float *ga, float *gb, float *out, const float *x,
                          int n, int m) {
  __shared__ int ids[256];
  __syncthreads();
  ids[threadIdx.x] = threadIdx.x;
  __syncthreads();
  float acc = 0.f;
  for (int j = 0; j < n; j++) {
    float a = x[threadIdx.x * n + j];
    if (a < 0.f) {
      if (a < -1.f)
        continue;
    }
    const float b = a * 2.f;
    if (b > m)
      continue;
    const int id = ids[j];
    atomicAdd(&ga[id], a);
    atomicAdd(&gb[id], b);
    acc += b;
  }
  out[threadIdx.x] = acc;
}
// CHECK-LABEL: __global__ void continues(
// CHECK: for (int j = 0;
// CHECK: j < n;
// CHECK: j++) {
// CHECK: bool distwar_active0 = true;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: float b;
// CHECK: float a = x[threadIdx.x * n + j];
// CHECK-NEXT: if (a < 0.f) {
// CHECK-NEXT: if (a < -1.f)
// CHECK-NEXT: distwar_active0 = false;
// b = a * 2.f and the test of b only compute: they run in every lane, inside
// one warp-uniform branch (speculation), with no per-lane guard.
// CHECK: }
// CHECK: if (::distwar::anyActive(distwar_active0)) {
// CHECK-NEXT: b = a * 2.f;
// CHECK-NEXT: if (b > m)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: const int id = ids[j];
// CHECK-NEXT: distwar_batch0.set(0, &ga[id], a);
// CHECK: distwar_batch0.set(1, &gb[id], b);
// CHECK: distwar_key0 = id;
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_active0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_conversions_cu,
// CHECK: 0),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// CHECK: if (distwar_active0) {
// CHECK: acc += b;
// CHECK: }
// CHECK: }
// REPORT: group continues#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=id

// The group under a per-lane if: the reduction moves after the if, the flag
// records that the lane ran the block (the condition is evaluated once).
__global__ void underIf(float *ga, float *gb, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a * a);
    }
  }
}
// CHECK-LABEL: __global__ void underIf(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: distwar_batch0.set(1, &gb[i], a * a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_conversions_cu,
// CHECK: 1),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group underIf#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i

// A lane-dependent loop-condition term that never changes in the loop.
__global__ void loopTerm(float *g, const float *x, int n, int w) {
  const bool inside = threadIdx.x < w;
  unsigned counter = 0;
  for (int j = 0; inside && j < n; ++j) {
    counter++;
    if (x[j] > 1.f)
      continue;
    atomicAdd(&g[j], x[j] * counter);
  }
}
// CHECK-LABEL: __global__ void loopTerm(
// CHECK: for (int j = 0;
// CHECK: j < n;
// CHECK: ++j) {
// CHECK: bool distwar_active0 = (inside);
// CHECK: ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: if (distwar_active0) {
// CHECK: counter++;
// CHECK-NEXT: if (x[j] > 1.f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: distwar_batch0.set(0, &g[j], x[j] * counter);
// CHECK: distwar_key0 = j;
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// REPORT: group loopTerm#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=j

// A field under a grid-uniform condition (a nullable output) joins the group
// as a tracked slot whose address repeats the condition; a field under a
// lane-dependent condition joins it as a LaneSet slot (the condition is not
// repeated: the reduction shares the slot's presence across the key's lanes).
__global__ void fields(float *ga, float *gopt, float *gc, const float *x,
                       int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    atomicAdd(&ga[i], a);
    if (gopt)
      atomicAdd(&gopt[i], 2.f * a);
    if (a > 0.5f)
      atomicAdd(&gc[i], a);
  }
}
// CHECK-LABEL: __global__ void fields(
// CHECK: ::distwar::Fields<float,
// CHECK: 3,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 1>,
// CHECK: ::distwar::LaneSet<2,
// CHECK: 3>>
// CHECK: distwar_batch0;
// CHECK: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: if (gopt)
// CHECK-NEXT: distwar_batch0.set(1, &gopt[i], 2.f * a);
// CHECK-NEXT: if (a > 0.5f)
// CHECK: distwar_batch0.set(2, &gc[i], a);
// CHECK: distwar_key0 = i;
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: if (distwar_slot == 1)
// CHECK: return (gopt) ? (&gopt[distwar_key0]) : nullptr;
// CHECK: if (distwar_slot == 2)
// CHECK: return &gc[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// SITES: conversions.cu:{{[0-9]+}}:7: batched atomicAdd in fields buffer=gc key=i slot=2 type=float group=fields#0
// REPORT: group fields#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=3

// Straight-line code: the key is a kernel parameter (uniform), no flag.
__global__ void straight(float *ga, float *gb, int id, float v) {
  atomicAdd(&ga[id], v);
  atomicAdd(&gb[id], v);
}
// CHECK-LABEL: __global__ void straight(
// CHECK: distwar_batch0.set(1, &gb[id], v);
// CHECK: distwar_key0 = id;
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: true,
// CHECK: distwar_key0,
// REPORT: group straight#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=id

// Keys from a per-lane table: serial (match-any) in auto mode.
__global__ void perLane(float *ga, float *gb, const int *ids, int k) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < k; i++) {
    const int id = ids[pix * k + i];
    if (id >= 0) {
      atomicAdd(&ga[id], 1.f);
      atomicAdd(&gb[id], 2.f);
    }
  }
}
// CHECK-LABEL: __global__ void perLane(
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch{{[0-9]}},
// CHECK: id,
// REPORT: group perLane#0: batched (serial; not butterfly: DW0026 key-varies) key=id

// Every lane owns its key: nothing to gain, left alone in auto mode.
__global__ void perGaussian(float *ga, float *gb, const float *x, int n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int p = 0; p < n; ++p)
    s += x[p];
  atomicAdd(&ga[idx], s);
  atomicAdd(&gb[idx], 2.f * s);
}
// CHECK-LABEL: __global__ void perGaussian(
// CHECK: atomicAdd(&ga[idx], s);
// CHECK-NEXT: atomicAdd(&gb[idx], 2.f * s);
// REPORT: group perGaussian@{{[0-9]+}}: unchanged key=idx type=float sites=2 [DW0027 distinct-keys

// A group with one more per-lane continue between its sites: one batch and
// one reduction. The fields after the continue are LaneSet slots; the key is
// captured, and `reached` set, where the first part ends, and the reduction
// after the last part takes every lane that reached it (a lane that
// continued later still adds what it set before).
__global__ void split(float *gc, float *gm, float *go, const float *x, int n,
                      float cut) {
  __shared__ int ids[256];
  __syncthreads();
  ids[threadIdx.x] = threadIdx.x;
  __syncthreads();
  float T = 1.f;
  for (int j = 0; j < n; j++) {
    const float a = x[threadIdx.x * n + j];
    if (a <= 0.f)
      continue;
    const int id = ids[j];
    atomicAdd(&gc[id], a * T);
    T *= 1.f - a;
    if (a < cut)
      continue;
    atomicAdd(&gm[id], a);
    atomicAdd(&go[id], T);
    T += 0.5f;
  }
  gc[threadIdx.x] += T;
}
// CHECK-LABEL: __global__ void split(
// CHECK: for (int j = 0;
// CHECK: j < n;
// CHECK: j++) {
// CHECK: bool distwar_active0 = true;
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float,
// CHECK: 3,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: 1>,
// CHECK: ::distwar::LaneSet<1,
// CHECK: 3>>
// CHECK: distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: int id;
// CHECK: const float a = x[threadIdx.x * n + j];
// CHECK-NEXT: if (a <= 0.f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK-NEXT: id = ids[j];
// CHECK: distwar_batch0.set(0, &gc[id], a * T);
// CHECK: distwar_key0 = id;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK: if (distwar_active0) {
// CHECK: T *= 1.f - a;
// CHECK-NEXT: if (a < cut)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK-NEXT: distwar_batch0.set(1, &gm[id], a);
// CHECK: distwar_batch0.set(2, &go[id], T);
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_conversions_cu,
// CHECK: 6),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &gc[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gm[distwar_key0];
// CHECK: if (distwar_slot == 2)
// CHECK: return &go[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// CHECK: if (distwar_active0) {
// CHECK: T += 0.5f;
// CHECK: }
// CHECK: }
// REPORT: group split#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=id type=float sites=3 slots=3

// Two keys in one iteration, one after the other: both get the butterfly and
// share the live flag.
__global__ void twoKeys(float *ga, float *gb, const int *ids, int n,
                        float v) {
  for (int i = 0; i < n; i++) {
    if (v > threadIdx.x)
      continue;
    atomicAdd(&ga[i], v);
    atomicAdd(&gb[ids[i]], v);
  }
}
// CHECK-LABEL: __global__ void twoKeys(
// CHECK: distwar_batch0.set(0, &ga[i], v);
// CHECK: distwar_key0 = i;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_active0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_conversions_cu,
// CHECK: 7),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// CHECK: ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1;
// CHECK: int distwar_key1 = 0;
// CHECK: if (distwar_active0) {
// CHECK: distwar_batch1.set(0, &gb[ids[i]], v);
// CHECK: distwar_key1 = ids[i];
// CHECK: }
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch1,
// CHECK: distwar_active0,
// CHECK: distwar_key1,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_conversions_cu,
// CHECK: 8),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &gb[distwar_key1];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group twoKeys#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i
// REPORT: group twoKeys#1: batched (butterfly{{( or serial, chosen at run time)?}}) key=ids[i]
