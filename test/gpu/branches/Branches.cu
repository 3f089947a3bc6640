//===- Branches.cu - Kernels for each divergence conversion ---------------===//
//
// Small backward-pass-like kernels, one per divergence pattern that
// distwar-rewrite converts for the butterfly (docs/GENERATED_CODE.md section
// 6; the lit tests in test/divergence). Written with plain atomics; the build
// compiles this file as written (the reference, namespace dwb_plain) and the
// tool's output of it for VARIANT auto, serial and butterfly (namespaces
// dwb_<variant>), and BranchesTest.cpp compares every output element.
//
// Every atomic value is >= 0, so |sum| is the sum of magnitudes and the
// driver's relative tolerance is one on the sum of magnitudes. Lanes diverge
// through per-lane thresholds thr[tid] and per-lane data x[tid * n + j].
//
// The tool's choice per group: VARIANT auto as in the table; VARIANT serial
// gives reduceSerial everywhere; VARIANT butterfly gives reduceButterfly
// (run-time key check) where auto says butterfly or serial, so the
// lane-varying keys exercise its fallback, and reduceButterflyUniform where
// auto says butterfly-uniform.
//
// Kernel: pattern (lit test) -> what VARIANT auto chose
//   continuesNested: continues in nested ifs, a declaration used after the
//     reduction (hoisted), shared key at the loop counter (conversions.cu
//     continues) -> butterfly-uniform, statements speculated (anyActive)
//   loopTerm: `!done && j < ...` loop term, 3DGS-like contributor skip, state
//     updated after the group (conversions.cu loopTerm) -> butterfly-uniform
//   earlyReturn: `if (px >= npix) return;` before the loop, converted to
//     distwar_returned (early-return.cu) -> butterfly-uniform
//   earlyReturnKept: the same with a load in between: the return stays and
//     returned lanes are absent at the call -> butterfly-uniform, note DW0037
//   thenArm / elseArm / elseIfArm: the group in the then branch, the else
//     branch, the middle arm of an else-if chain (if-else.cu)
//     -> butterfly-uniform (distwar_reached)
//   nestedIfs: three ifs deep, an else and an unbraced if, a nullable field
//     inside (if-else.cu deep, nestedField) -> butterfly-uniform
//   nullableField: `if (gopt)` field in the group, a lane-dependent site left
//     out as a plain atomic (conversions.cu fields) -> butterfly-uniform
//   speculation: shared reads at the loop counter and math between continues
//     (speculation.cu sharedInBounds; one barrier, so the key is only likely
//     uniform) -> butterfly (anyActive)
//   split: two groups split by a continue, one live flag (conversions.cu
//     split) -> butterfly-uniform x2
//   counters: unsigned and int counters (one group per type), a float field
//     keyed by a global load -> butterfly-uniform x2, butterfly
//   laneKeysContinue: continues, key base + (lane / 4 + j) % 64 -> serial
//     (DW0026 key-varies)
//   laneKeysElse: else branch, lane-varying key, nullable field -> serial
//     (DW0026 key-varies)
//   sharedTables: adds to two __shared__ tables of the block (the same for
//     every lane of a warp), one at the loop counter, one at a per-lane key,
//     copied out after a barrier (decisions/shared-arrays.cu)
//     -> butterfly-uniform, serial (DW0026 key-varies)
//   Decisions.cu: the kernels of the batching decisions (its own table)
//
// (What the tool reported when this file was written; a build's reports are
// build/test/gpu/branches/distwar_branches_<variant>.report.json.)
//
//===----------------------------------------------------------------------===//

#include "Branches.h"

#include <cuda_runtime.h>

#ifndef DISTWAR_BRANCHES_NS
#error "define DISTWAR_BRANCHES_NS (the namespace of this variant)"
#endif

#define BLOCK 128
#define KEYS 64

namespace DISTWAR_BRANCHES_NS {

// Continues in nested ifs; `b` is used after the reduction (hoisted); the key
// is a shared read at the loop counter (warp-uniform, like 3DGS).
__global__ void continuesNested(float *ga, float *gb, float *out,
                                const float *x, const float *thr,
                                const int *ids, int n) {
  __shared__ int sid[BLOCK];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  sid[threadIdx.x] = ids[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  const float t = thr[tid];
  float acc = 0.f;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    if (v < t) {
      if (v < 0.5f * t)
        continue;
    }
    const float b = v * 2.f + t;
    if (b > 2.2f)
      continue;
    const int id = sid[j];
    atomicAdd(&ga[id], v);
    atomicAdd(&gb[id], b);
    acc += b;
  }
  out[tid] = acc;
}

// 3DGS-like: a `!done` loop-condition term, a per-lane contributor skip, a
// transmittance updated after the group.
__global__ void loopTerm(float *ga, float *gb, float *out, const float *x,
                         const float *thr, const int *ids, int n) {
  __shared__ int sid[BLOCK];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  sid[threadIdx.x] = ids[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  const bool done = thr[tid] > 0.8f;
  const int last = (int)(thr[tid] * n * 1.5f);
  int contributor = n;
  float T = 1.f;
  for (int j = 0; !done && j < min(BLOCK, n); j++) {
    contributor--;
    if (contributor >= last)
      continue;
    const float v = x[tid * n + j];
    if (v < 0.2f)
      continue;
    const int id = sid[j];
    atomicAdd(&ga[id], v * T);
    atomicAdd(&gb[id], T);
    T *= 0.95f;
  }
  out[tid] = T;
}

// A pixel outside the image returns before a uniform loop over keys.
__global__ void earlyReturn(float *ga, float *gb, const float *x, int npix,
                            int n) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  // Before the return: a blockIdx read between the return and the loop keeps
  // the return (the tool does not treat it as free of memory reads).
  const int base = blockIdx.x * KEYS;
  if (px >= npix)
    return;
  const float s = 0.5f + 0.25f * (px % 3);
  for (int t = 0; t < n; ++t) {
    const float v = x[px * n + t] * s;
    atomicAdd(&ga[base + t], v);
    atomicAdd(&gb[base + t], v * v);
  }
}

// The same with a load between the return and the loop: the return stays,
// returned lanes are absent at the reduction.
__global__ void earlyReturnKept(float *ga, float *gb, const float *x,
                                const float *thr, int npix, int n) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int base = blockIdx.x * KEYS;
  if (px >= npix)
    return;
  const float s = thr[px];
  for (int t = 0; t < n; ++t) {
    const float v = x[px * n + t];
    atomicAdd(&ga[base + t], v * s);
    atomicAdd(&gb[base + t], v + s);
  }
}

// The group in the then branch; the else branch keeps its stores.
__global__ void thenArm(float *ga, float *gb, float *out, const float *x,
                        const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  float acc = 0.f;
  for (int i = 0; i < n; i++) {
    const float v = x[tid * n + i];
    if (v > t) {
      atomicAdd(&ga[base + i], v);
      atomicAdd(&gb[base + i], 2.f * v);
    } else {
      acc += v;
      out[tid * n + i] = acc;
    }
  }
}

// The group in the else branch, adding a running sum.
__global__ void elseArm(float *ga, float *gb, float *out, const float *x,
                        const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  float acc = 0.f;
  for (int i = 0; i < n; i++) {
    const float v = x[tid * n + i];
    if (v > t) {
      acc += v;
    } else {
      atomicAdd(&ga[base + i], acc);
      atomicAdd(&gb[base + i], v);
    }
  }
  out[tid] = acc;
}

// The group in the middle arm of an else-if chain.
__global__ void elseIfArm(float *ga, float *gb, float *out, const float *x,
                          const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  for (int i = 0; i < n; i++) {
    const float v = x[tid * n + i];
    if (v > 0.9f) {
      out[tid * n + i] = v;
    } else if (v > t) {
      atomicAdd(&ga[base + i], v);
      atomicAdd(&gb[base + i], v * 3.f);
    } else if (v > 0.5f * t)
      out[tid * n + i] = 2.f * v;
    else
      out[tid * n + i] = 0.f;
  }
}

// Three levels of ifs, the middle one with an else, an if without braces, a
// nullable field inside the group, state reset after the group.
__global__ void nestedIfs(float *ga, float *gb, float *gopt, float *out,
                          const float *x, const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  float s = 0.f;
  for (int i = 0; i < n; i++) {
    const float v = x[tid * n + i];
    if (v > 0.1f)
      if (v < t) {
        s += v;
      } else {
        if (s > 0.3f) {
          atomicAdd(&ga[base + i], s);
          atomicAdd(&gb[base + i], v);
          if (gopt)
            atomicAdd(&gopt[base + i], s * v);
        }
        s = 0.f;
      }
  }
  out[tid] = s;
}

// A nullable output in a straight loop body; a lane-dependent site leaves the
// group as a plain atomic.
__global__ void nullableField(float *ga, float *gc, float *gopt, const float *x,
                              const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  for (int i = 0; i < n; i++) {
    const float v = x[tid * n + i];
    atomicAdd(&ga[base + i], v);
    if (gopt)
      atomicAdd(&gopt[base + i], 2.f * v);
    if (v > t)
      atomicAdd(&gc[base + i], v);
  }
}

// Shared points at the loop counter and arithmetic between the continues
// (speculation.cu sharedInBounds): a per-lane budget and a radius test.
__global__ void speculation(float *ga, float *gb, const float2 *pts,
                            const float *thr, const int *ids, int n) {
  __shared__ float2 xy[BLOCK];
  __shared__ int sid[BLOCK];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  xy[threadIdx.x] = pts[blockIdx.x * BLOCK + threadIdx.x];
  sid[threadIdx.x] = ids[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  const float cx = thr[tid];
  const float cy = 1.f - thr[tid];
  int budget = 8 + (int)(thr[tid] * n);
  for (int j = 0; j < min(BLOCK, n); j++) {
    budget--;
    if (budget < 0)
      continue;
    const float2 p = xy[j];
    const float r = sqrtf((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy));
    if (r > 0.6f)
      continue;
    const float w = expf(-r);
    atomicAdd(&ga[sid[j]], w);
    atomicAdd(&gb[sid[j]], w * r);
  }
}

// A group split by a per-lane continue: two batches, one live flag.
__global__ void split(float *ga, float *gb, float *gc, float *out,
                      const float *x, const float *thr, const int *ids, int n) {
  __shared__ int sid[BLOCK];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  sid[threadIdx.x] = ids[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  const float t = thr[tid];
  float T = 1.f;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    if (v < 0.2f * t)
      continue;
    const int id = sid[j];
    atomicAdd(&gc[id], v * T);
    T *= 1.f - 0.5f * v;
    if (v < t)
      continue;
    atomicAdd(&ga[id], v);
    atomicAdd(&gb[id], T);
    T += 0.5f;
  }
  out[tid] = T;
}

// Integer counters of two types (one group each) and a float field whose key
// is loaded from global memory (likely uniform: checked at run time).
__global__ void counters(unsigned *cnt, int *hits, float *ga, const float *x,
                         const float *thr, const int *ids, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  const int row = blockIdx.x * BLOCK;
  for (int i = 0; i < n; i++) {
    const float v = x[tid * n + i];
    if (v < 0.3f * t)
      continue;
    atomicAdd(&cnt[base + i], 1u);
    atomicAdd(&hits[base + i], (int)(v * 100.f));
    atomicAdd(&ga[ids[row + i]], v);
  }
}

// Lane-varying keys: four lanes share a key, continues in nested ifs.
__global__ void laneKeysContinue(float *ga, float *gb, float *out,
                                 const float *x, const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  float acc = 0.f;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    if (v < t) {
      if (v < 0.5f * t)
        continue;
    }
    const int key = base + (lane / 4 + j) % KEYS;
    atomicAdd(&ga[key], v);
    atomicAdd(&gb[key], v * t);
    acc += v;
  }
  out[tid] = acc;
}

// Lane-varying keys in an else branch, with a nullable field.
__global__ void laneKeysElse(float *ga, float *gb, float *gopt, float *out,
                             const float *x, const float *thr, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const float t = thr[tid];
  const int base = blockIdx.x * KEYS;
  float acc = 0.f;
  for (int j = 0; j < n; j++) {
    const float v = x[tid * n + j];
    const int key = base + (lane / 4 + 3 * j) % KEYS;
    if (v > t) {
      acc += v;
    } else {
      atomicAdd(&ga[key], v + acc);
      atomicAdd(&gb[key], v);
      if (gopt)
        atomicAdd(&gopt[key], acc);
    }
  }
  out[tid] = acc;
}

// Adds to __shared__ tables, one per block: the loop counter's entry
// (warp-uniform) and a per-lane entry; the tables are copied out with plain
// stores after a barrier.
__global__ void sharedTables(float *ga, float *gb, const float *x,
                             const int *ids, int n) {
  __shared__ float atCounter[KEYS];
  __shared__ float atLane[KEYS];
  for (int i = threadIdx.x; i < KEYS; i += blockDim.x) {
    atCounter[i] = 0.f;
    atLane[i] = 0.f;
  }
  __syncthreads();
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int mine = ids[tid] % KEYS;
  for (int t = 0; t < n; ++t) {
    const float v = x[tid * n + t];
    atomicAdd(&atCounter[t], v);
    atomicAdd(&atLane[mine], v * v);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < KEYS; i += blockDim.x) {
    ga[blockIdx.x * KEYS + i] = atCounter[i];
    gb[blockIdx.x * KEYS + i] = atLane[i];
  }
}

void launch(dwb::Kernel which, const dwb::Args &a) {
  const dim3 grid(a.blocks), block(BLOCK);
  switch (which) {
  case dwb::k_continuesNested:
    continuesNested<<<grid, block>>>(a.ga, a.gb, a.out, a.x, a.thr, a.ids, a.n);
    break;
  case dwb::k_loopTerm:
    loopTerm<<<grid, block>>>(a.ga, a.gb, a.out, a.x, a.thr, a.ids, a.n);
    break;
  case dwb::k_earlyReturn:
    earlyReturn<<<grid, block>>>(a.ga, a.gb, a.x, a.npix, a.n);
    break;
  case dwb::k_earlyReturnKept:
    earlyReturnKept<<<grid, block>>>(a.ga, a.gb, a.x, a.thr, a.npix, a.n);
    break;
  case dwb::k_thenArm:
    thenArm<<<grid, block>>>(a.ga, a.gb, a.out, a.x, a.thr, a.n);
    break;
  case dwb::k_elseArm:
    elseArm<<<grid, block>>>(a.ga, a.gb, a.out, a.x, a.thr, a.n);
    break;
  case dwb::k_elseIfArm:
    elseIfArm<<<grid, block>>>(a.ga, a.gb, a.out, a.x, a.thr, a.n);
    break;
  case dwb::k_nestedIfs:
    nestedIfs<<<grid, block>>>(a.ga, a.gb, a.gopt, a.out, a.x, a.thr, a.n);
    break;
  case dwb::k_nullableField:
    nullableField<<<grid, block>>>(a.ga, a.gc, a.gopt, a.x, a.thr, a.n);
    break;
  case dwb::k_speculation:
    speculation<<<grid, block>>>(
        a.ga, a.gb, reinterpret_cast<const float2 *>(a.x), a.thr, a.ids, a.n);
    break;
  case dwb::k_split:
    split<<<grid, block>>>(a.ga, a.gb, a.gc, a.out, a.x, a.thr, a.ids, a.n);
    break;
  case dwb::k_counters:
    counters<<<grid, block>>>(a.cnt, a.hits, a.ga, a.x, a.thr, a.ids, a.n);
    break;
  case dwb::k_laneKeysContinue:
    laneKeysContinue<<<grid, block>>>(a.ga, a.gb, a.out, a.x, a.thr, a.n);
    break;
  case dwb::k_laneKeysElse:
    laneKeysElse<<<grid, block>>>(a.ga, a.gb, a.gopt, a.out, a.x, a.thr, a.n);
    break;
  case dwb::k_sharedTables:
    sharedTables<<<grid, block>>>(a.ga, a.gb, a.x, a.ids, a.n);
    break;
  case dwb::kKernelCount:
    break;
  default:
    launchDecisions(which, a); // Decisions.cu
    break;
  }
}

} // namespace DISTWAR_BRANCHES_NS
