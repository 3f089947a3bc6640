//===- RegisterProbe.cu - Kernels whose resource report is checked --------===//
//
// Compiled with -Xptxas -v by CheckRegisters.cmake: every reduction and
// strategy for N in {1, 9, 20} must keep the batch in registers (no stack
// frame, no spills), and so must the deferred-address form (Fields). The kernel
// has the shape of rewritten code: fields set at constant slots inside an
// unrolled channel loop.
//
//===----------------------------------------------------------------------===//
#include <distwar/runtime.cuh>

DISTWAR_SITES(distwar_sites_RegisterProbe_cu, "probe#0");

namespace strategy = distwar::strategy;

template <int Variant, typename S, typename T, int N>
__global__ void probe(T *grads, const int *ids, const T *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int id = ids[i / 32];
  const bool active = i < n && in[i] > T(0);
  distwar::Batch<T, N> b;
  if (active) {
#pragma unroll
    for (int ch = 0; ch < N; ++ch)
      b.set(ch, &grads[id * N + ch], in[i] * T(ch + 1));
  }
  const int t = DISTWAR_SITE_THRESHOLD(distwar_sites_RegisterProbe_cu, 0);
  if (Variant == 0) {
    if (active)
      distwar::reduceSerial<S>(b, id, t);
  } else if (Variant == 1) {
    distwar::reduceButterfly<S>(b, active, id, t);
  } else if (Variant == 2) {
    distwar::reduceButterflyUniform<S>(b, active, id, t);
  } else {
    distwar::reducePlain(b);
  }
}

/// The deferred-address form (Fields + addrOf), as the rewriter emits it.
template <int Variant, typename S, typename T, int N>
__global__ void probeFields(T *grads, const int *ids, const T *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int id = ids[i / 32];
  const bool active = i < n && in[i] > T(0);
  distwar::Fields<T, N> b;
  if (active) {
#pragma unroll
    for (int ch = 0; ch < N; ++ch)
      b.set(ch, &grads[id * N + ch], in[i] * T(ch + 1));
  }
  auto addrOf = [&](int slot) -> T * {
    if (slot >= 0 && slot < N) {
      const int ch = slot;
      return &grads[id * N + ch];
    }
    return nullptr;
  };
  const int t = DISTWAR_SITE_THRESHOLD(distwar_sites_RegisterProbe_cu, 0);
  if (Variant == 0) {
    if (active)
      distwar::reduceSerial<S>(b, id, t, addrOf);
  } else if (Variant == 1) {
    distwar::reduceButterfly<S>(b, active, id, t, addrOf);
  } else if (Variant == 2) {
    distwar::reduceButterflyUniform<S>(b, active, id, t, addrOf);
  } else {
    distwar::reducePlain(b, addrOf);
  }
}

#define PROBE(V, S, T, N)                                                      \
  template __global__ void probe<V, strategy::S, T, N>(T *, const int *,       \
                                                       const T *, int);
#define PROBE_STRATEGIES(V, T, N)                                              \
  PROBE(V, Leader, T, N)                                                       \
  PROBE(V, TreeLaneK, T, N) PROBE(V, ScatterLaneK, T, N)
#define PROBE_SIZES(V, T)                                                      \
  PROBE_STRATEGIES(V, T, 1)                                                    \
  PROBE_STRATEGIES(V, T, 9) PROBE_STRATEGIES(V, T, 20)

PROBE_SIZES(0, float)
PROBE_SIZES(1, float)
PROBE_SIZES(2, float)
PROBE(3, Leader, float, 20)
PROBE_STRATEGIES(0, double, 20)
PROBE_STRATEGIES(1, double, 20)

#define PROBE_FIELDS(V, S, T, N)                                               \
  template __global__ void probeFields<V, strategy::S, T, N>(T *, const int *, \
                                                             const T *, int);
PROBE_FIELDS(0, Leader, float, 9)
PROBE_FIELDS(0, ScatterLaneK, float, 20)
PROBE_FIELDS(1, Leader, float, 20)
PROBE_FIELDS(1, TreeLaneK, float, 20)
PROBE_FIELDS(1, ScatterLaneK, float, 20)
PROBE_FIELDS(2, Leader, float, 20)
PROBE_FIELDS(2, ScatterLaneK, float, 1)
PROBE_FIELDS(1, Leader, double, 20)
PROBE_FIELDS(3, Leader, float, 20)
