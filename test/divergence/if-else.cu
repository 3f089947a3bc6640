// A group under nested ifs, in one branch of an if/else or of an else-if
// chain: the reduction moves just after the outermost if at the loop body's
// top level, `distwar_reached<k>` is set where the group completes (its path
// condition), and every other statement, the conditions and the other
// branches stay exactly as written.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if format-compact %{ test $(grep -c '' %s) -eq $(tail -n +4 %t.cu | grep -c '') %}
// RUN: %check-line-map %s %t.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// Nested ifs: the state updates around the group keep their per-lane
// behaviour; the statements after the group inside the ifs run before the
// reduction (they touch no destination buffer).
__global__ void nested(float *ga, float *gb, float *out, const float *x,
                       int n) {
  float acc = 0.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      acc += a;
      if (a < 2.f) {
        atomicAdd(&ga[i], a);
        atomicAdd(&gb[i], a * a);
        acc *= 0.5f;
      }
      acc += 1.f;
    }
    out[threadIdx.x] = acc;
  }
}
// CHECK-LABEL: __global__ void nested(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: acc += a;
// CHECK-NEXT: if (a < 2.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK: distwar_batch0.set(1, &gb[i], a * a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: acc *= 0.5f;
// CHECK-NEXT: }
// CHECK-NEXT: acc += 1.f;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 0),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// CHECK: out[threadIdx.x] = acc;
// REPORT: group nested#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2

// Nested ifs after a converted continue: the holder runs under the live
// flag, the reduction after the guards close, with the reached flag.
__global__ void afterContinue(float *ga, float *gb, const float *x, int n) {
  float T = 1.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a < -1.f)
      continue;
    T *= 1.f - a;
    if (a > 0.f) {
      if (a < 2.f) {
        atomicAdd(&ga[i], a * T);
        atomicAdd(&gb[i], T);
      }
    }
    T += a;
  }
  ga[n + threadIdx.x] = T;
}
// CHECK-LABEL: __global__ void afterContinue(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_active0 = true;
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a < -1.f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: T *= 1.f - a;
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: if (a < 2.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a * T);
// CHECK: distwar_batch0.set(1, &gb[i], T);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 1),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// CHECK: if (distwar_active0) {
// REPORT: group afterContinue#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2

// The group in the then branch; the else branch keeps its behaviour.
__global__ void thenArm(float *ga, float *gb, float *out, const float *x,
                        int n) {
  float acc = 0.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], 2.f * a);
    } else {
      acc -= a;
      out[i] = acc;
    }
  }
}
// CHECK-LABEL: __global__ void thenArm(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK: distwar_batch0.set(1, &gb[i], 2.f * a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: } else {
// CHECK-NEXT: acc -= a;
// CHECK-NEXT: out[i] = acc;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 2),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group thenArm#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2

// The group in the else branch.
__global__ void elseArm(float *ga, float *gb, const float *x, int n) {
  float acc = 0.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      acc += a;
    } else {
      atomicAdd(&ga[i], acc);
      atomicAdd(&gb[i], a);
    }
  }
}
// CHECK-LABEL: __global__ void elseArm(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: acc += a;
// CHECK-NEXT: } else {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], acc);
// CHECK: distwar_batch0.set(1, &gb[i], a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 3),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group elseArm#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2

// An else-if chain with the group in the middle arm; the conditions of the
// arms before it are evaluated as before, those after it not at all.
__global__ void elseIfChain(float *ga, float *gb, float *out, const float *x,
                            int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 2.f) {
      out[i] = a;
    } else if (a > 0.f) {
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a * 3.f);
    } else if (a > -2.f)
      out[i] = -a;
    else
      out[i] = 0.f;
  }
}
// CHECK-LABEL: __global__ void elseIfChain(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 2.f) {
// CHECK-NEXT: out[i] = a;
// CHECK-NEXT: } else if (a > 0.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK: distwar_batch0.set(1, &gb[i], a * 3.f);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: } else if (a > -2.f)
// CHECK-NEXT: out[i] = -a;
// CHECK-NEXT: else
// CHECK: out[i] = 0.f;
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 4),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group elseIfChain#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2

// Three levels, the middle one with an else, and an if without braces.
__global__ void deep(float *ga, float *gb, const float *x, int n) {
  float s = 0.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f)
      if (a < 4.f) {
        s += a;
      } else {
        if (s > 1.f) {
          atomicAdd(&ga[i], s);
          atomicAdd(&gb[i], a);
        }
        s = 0.f;
      }
  }
}
// CHECK-LABEL: __global__ void deep(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f)
// CHECK-NEXT: if (a < 4.f) {
// CHECK-NEXT: s += a;
// CHECK-NEXT: } else {
// CHECK-NEXT: if (s > 1.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], s);
// CHECK: distwar_batch0.set(1, &gb[i], a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK-NEXT: s = 0.f;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 5),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group deep#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2

// Split groups: the first under nested ifs after a converted continue, the
// second at the body's top level after it; they share the live flag.
__global__ void segments(float *ga, float *gb, float *gc, const int *ids,
                         const float *x, int n) {
  float T = 1.f;
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a < -3.f)
      continue;
    if (a > 0.f) {
      if (a < 1.f) {
        atomicAdd(&ga[i], a);
        atomicAdd(&gc[i], a);
      }
    } else {
      T += a;
    }
    T *= 0.5f;
    atomicAdd(&gb[ids[i]], T);
  }
  gc[threadIdx.x] = T;
}
// CHECK-LABEL: __global__ void segments(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_active0 = true;
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a < -3.f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: if (a > 0.f) {
// CHECK-NEXT: if (a < 1.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK: distwar_batch0.set(1, &gc[i], a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK-NEXT: } else {
// CHECK-NEXT: T += a;
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 6),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gc[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// CHECK: ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1;
// CHECK: int distwar_key1 = 0;
// CHECK: if (distwar_active0) {
// CHECK: T *= 0.5f;
// CHECK: distwar_batch1.set(0, &gb[ids[i]], T);
// CHECK: distwar_key1 = ids[i];
// CHECK: }
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch1,
// CHECK: distwar_active0,
// CHECK: distwar_key1,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 7),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &gb[distwar_key1];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group segments#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2
// REPORT: group segments#1: batched (butterfly{{( or serial, chosen at run time)?}}) key=ids[i] type=float sites=1

// A grid-uniform conditional field inside the nested group keeps its
// condition, at the site and in the address lambda.
__global__ void nestedField(float *ga, float *gopt, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float a = x[threadIdx.x * n + i];
    if (a > 0.f) {
      if (a < 1.f) {
        atomicAdd(&ga[i], a);
        if (gopt)
          atomicAdd(&gopt[i], a);
      }
    }
  }
}
// CHECK-LABEL: __global__ void nestedField(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 1>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: if (a < 1.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: if (gopt)
// CHECK: distwar_batch0.set(1, &gopt[i], a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 8),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return (gopt) ? (&gopt[distwar_key0]) : nullptr;
// CHECK: return nullptr;
// CHECK: });
// REPORT: group nestedField#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2

// A plain block at the body's top level holds the group: the same shape,
// the flag is set for every lane that ran the block.
__global__ void block(float *ga, float *gb, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    {
      const float a = x[threadIdx.x * n + i];
      atomicAdd(&ga[i], a);
      atomicAdd(&gb[i], a);
    }
  }
}
// CHECK-LABEL: __global__ void block(
// CHECK: for (int i = 0;
// CHECK: i < n;
// CHECK: i++) {
// CHECK: bool distwar_reached0 = false;
// CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
// CHECK: int distwar_key0 = 0;
// CHECK: {
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK: distwar_batch0.set(1, &gb[i], a);
// CHECK: distwar_key0 = i;
// CHECK: distwar_reached0 = true;
// CHECK: }
// CHECK: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK: distwar_key0,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_if_else_cu,
// CHECK: 9),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &ga[distwar_key0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &gb[distwar_key0];
// CHECK: return nullptr;
// CHECK: });
// REPORT: group block#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=i type=float sites=2
