// A group under nested ifs, in one branch of an if/else or of an else-if
// chain: the reduction moves just after the outermost if at the loop body's
// top level, `distwar_reached<k>` is set where the group completes (its path
// condition), and every other statement, the conditions and the other
// branches stay exactly as written.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: test $(grep -c '' %s) -eq $(tail -n +4 %t.cu | grep -c '')
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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: acc += a;
// CHECK-NEXT: if (a < 2.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: distwar_batch0.set(1, &gb[i], a * a); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: acc *= 0.5f;
// CHECK-NEXT: }
// CHECK-NEXT: acc += 1.f;
// CHECK-NEXT: } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 0), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gb[distwar_key0]; return nullptr; });
// CHECK-NEXT: out[threadIdx.x] = acc;
// REPORT: group nested#0: batched (butterfly-uniform) key=i type=float sites=2

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_active0 = true; bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a < -1.f)
// CHECK-NEXT: distwar_active0 = false; if (distwar_active0) {
// CHECK-NEXT: T *= 1.f - a;
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: if (a < 2.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a * T);
// CHECK-NEXT: distwar_batch0.set(1, &gb[i], T); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: }
// CHECK-NEXT: } } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 1), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gb[distwar_key0]; return nullptr; }); if (distwar_active0) {
// REPORT: group afterContinue#0: batched (butterfly-uniform) key=i type=float sites=2

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: distwar_batch0.set(1, &gb[i], 2.f * a); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: } else {
// CHECK-NEXT: acc -= a;
// CHECK-NEXT: out[i] = acc;
// CHECK-NEXT: } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 2), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gb[distwar_key0]; return nullptr; });
// REPORT: group thenArm#0: batched (butterfly-uniform) key=i type=float sites=2

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: acc += a;
// CHECK-NEXT: } else {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], acc);
// CHECK-NEXT: distwar_batch0.set(1, &gb[i], a); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 3), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gb[distwar_key0]; return nullptr; });
// REPORT: group elseArm#0: batched (butterfly-uniform) key=i type=float sites=2

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 2.f) {
// CHECK-NEXT: out[i] = a;
// CHECK-NEXT: } else if (a > 0.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: distwar_batch0.set(1, &gb[i], a * 3.f); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: } else if (a > -2.f)
// CHECK-NEXT: out[i] = -a;
// CHECK-NEXT: else
// CHECK-NEXT: out[i] = 0.f; ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 4), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gb[distwar_key0]; return nullptr; });
// REPORT: group elseIfChain#0: batched (butterfly-uniform) key=i type=float sites=2

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f)
// CHECK-NEXT: if (a < 4.f) {
// CHECK-NEXT: s += a;
// CHECK-NEXT: } else {
// CHECK-NEXT: if (s > 1.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], s);
// CHECK-NEXT: distwar_batch0.set(1, &gb[i], a); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: }
// CHECK-NEXT: s = 0.f;
// CHECK-NEXT: } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 5), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gb[distwar_key0]; return nullptr; });
// REPORT: group deep#0: batched (butterfly-uniform) key=i type=float sites=2

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_active0 = true; bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a < -3.f)
// CHECK-NEXT: distwar_active0 = false; if (distwar_active0) {
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: if (a < 1.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: distwar_batch0.set(1, &gc[i], a); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NEXT: T += a;
// CHECK-NEXT: } } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 6), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gc[distwar_key0]; return nullptr; }); ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1; int distwar_key1 = 0; if (distwar_active0) {
// CHECK-NEXT: T *= 0.5f;
// CHECK-NEXT: distwar_batch1.set(0, &gb[ids[i]], T); distwar_key1 = ids[i]; } ::distwar::reduceButterfly(distwar_batch1, distwar_active0, distwar_key1, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 7), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &gb[distwar_key1]; return nullptr; });
// REPORT: group segments#0: batched (butterfly-uniform) key=i type=float sites=2
// REPORT: group segments#1: batched (butterfly) key=ids[i] type=float sites=1

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 1>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: if (a > 0.f) {
// CHECK-NEXT: if (a < 1.f) {
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: if (gopt)
// CHECK-NEXT: distwar_batch0.set(1, &gopt[i], a); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: }
// CHECK-NEXT: } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 8), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return ((gopt)) ? (&gopt[distwar_key0]) : nullptr; return nullptr; });
// REPORT: group nestedField#0: batched (butterfly-uniform) key=i type=float sites=2

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
// CHECK: for (int i = 0; i < n; i++) { bool distwar_reached0 = false; ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0; int distwar_key0 = 0;
// CHECK-NEXT: {
// CHECK-NEXT: const float a = x[threadIdx.x * n + i];
// CHECK-NEXT: distwar_batch0.set(0, &ga[i], a);
// CHECK-NEXT: distwar_batch0.set(1, &gb[i], a); distwar_key0 = i; distwar_reached0 = true;
// CHECK-NEXT: } ::distwar::reduceButterflyUniform(distwar_batch0, distwar_reached0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_if_else_cu, 9), [&](int distwar_slot) -> float * { if (distwar_slot == 0) return &ga[distwar_key0]; if (distwar_slot == 1) return &gb[distwar_key0]; return nullptr; });
// REPORT: group block#0: batched (butterfly-uniform) key=i type=float sites=2
