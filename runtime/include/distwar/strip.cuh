//===- distwar/strip.cuh - Laps of a uniform-key loop reduced together --===//
//
// Where every lane of a warp adds to the same elements at each iteration of
// a loop (a filtered cubemap: each output texel walks every input texel in
// the same order), the butterfly sums each field over the warp with five
// shuffles, and the loop's latency is those shuffles' chain, iteration after
// iteration. The rewriter runs two iterations of such a loop per pass
// (laps) and keeps each lap's batch in a Strip; reduceStrip then sums all
// the laps' fields at once by recursive halving (a reduce-scatter):
// each step hands half of a lane's values to its partner, so that six
// values (two laps of three fields) need seven shuffles in a chain of three
// instead of thirty in chains of five, and the lanes left holding one sum
// each issue it (GENERATED_CODE.md, section 12).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_STRIP_CUH
#define DISTWAR_STRIP_CUH

#include "distwar/batch.cuh"
#include "distwar/lane_math.h"
#include "distwar/threshold.cuh"

#include <cstring>
#include <type_traits>

namespace distwar {

/// The iterations a strip holds: the rewriter's lap loop runs this many.
/// Two measured best on the reference cubemap (H100): four and eight
/// unrolled bodies were slower despite fewer shuffles per iteration.
constexpr int kStripLaps = 2;

/// The fields of the laps of one pass of a loop whose key the whole warp
/// shares, each lap's kept as the lap ends (keep). Laps past the loop's end
/// are never kept: their values stay zero and their addresses null.
template <typename B, int Laps> struct Strip {
  static_assert(Laps >= 1, "a strip holds at least one lap");
  static_assert(B::laneSetInFirstWord() == 0u,
                "a strip's batch has no LaneSet slots: the issuing lane's "
                "presence bits speak for the warp");
  using Type = typename B::Type;
  static constexpr int kFields = B::kSize;
  static constexpr int kValues = kFields * Laps;
  Type val[kValues > 0 ? kValues : 1];
  Type *addr[kValues > 0 ? kValues : 1];

  __device__ __forceinline__ Strip() {
#pragma unroll
    for (int q = 0; q < (kValues > 0 ? kValues : 1); ++q) {
      val[q] = Type(0);
      addr[q] = nullptr;
    }
  }

  /// Keeps lap \p l's fields; \p l is a constant after unrolling.
  __device__ __forceinline__ void keep(int l, const B &b) {
#pragma unroll
    for (int q = 0; q < kValues; ++q)
      if (q / kFields == l) {
        val[q] = b.value(q % kFields);
        addr[q] = b.address(q % kFields);
      }
  }
};

namespace detail {

/// The values a strip's reduce-scatter halves: a power of two, at least 8
/// so that at most four lanes issue each sum (two laps of one field would
/// otherwise leave sixteen lanes adding to one element).
constexpr __host__ __device__ int stripValues(int N) {
  int P = 8;
  while (P < N)
    P *= 2;
  return P;
}

/// `upper ? hi : lo` as one select instruction. Written as a C++ select, the
/// compiler may turn the halving's selects into a branch on the lane's bit
/// and copy the shuffles into both arms: divergent shuffles, which the warp
/// then runs half after half (the diffuse cubemap ran 1.3x slower than with
/// plain atomics).
__device__ __forceinline__ unsigned selp(bool upper, unsigned hi, unsigned lo) {
  unsigned r;
  asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\t"
      "selp.b32 %0, %1, %2, p;\n\t}"
      : "=r"(r)
      : "r"(hi), "r"(lo), "r"(static_cast<unsigned>(upper)));
  return r;
}
__device__ __forceinline__ unsigned long long
selp(bool upper, unsigned long long hi, unsigned long long lo) {
  unsigned long long r;
  asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\t"
      "selp.b64 %0, %1, %2, p;\n\t}"
      : "=l"(r)
      : "l"(hi), "l"(lo), "r"(static_cast<unsigned>(upper)));
  return r;
}
template <typename T>
__device__ __forceinline__ T selectLane(bool upper, T hi, T lo) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a 32- or 64-bit value");
  using Bits = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
  Bits h, l;
  memcpy(&h, &hi, sizeof(T));
  memcpy(&l, &lo, sizeof(T));
  const Bits r = selp(upper, h, l);
  T out;
  memcpy(&out, &r, sizeof(T));
  return out;
}

/// Recursive halving over lane bit D and below, down to one value per lane
/// (or past bit 1 when there are more than 32). At each step a lane hands
/// its partner across bit D the half of its slots that the partner keeps and
/// adds the partner's copy of the half it keeps itself; the addresses, the
/// same in every lane, are halved by selects. Lanes that differ only in the
/// bits below the last step then hold partial sums of the same slots, each
/// over its own lanes, and each issues its part.
template <int N, int D, typename T>
__device__ __forceinline__ void halveAndIssue(const T (&v)[N], T *const (&a)[N],
                                              unsigned lane) {
  if constexpr (N == 1 || D == 0) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (a[i] != nullptr)
        atomicAdd(a[i], v[i]);
  } else {
    constexpr int H = N / 2;
    const bool upper = (lane & D) != 0u;
    T next[H];
    T *nextAddr[H];
#pragma unroll
    for (int i = 0; i < H; ++i) {
      const T keep = selectLane(upper, v[i + H], v[i]);
      const T send = selectLane(upper, v[i], v[i + H]);
      next[i] = keep + __shfl_xor_sync(kFullMask, send, D);
      nextAddr[i] = selectLane(upper, a[i + H], a[i]);
    }
    halveAndIssue<H, D / 2>(next, nextAddr, lane);
  }
}

} // namespace detail

/// Adds every kept lap's fields; `Full` says how, chosen once for the whole
/// loop by runStrips. A full warp's fields are summed by recursive halving,
/// each sum issued by the lanes left holding a share of it (at most four per
/// element, each with its own lanes' part); otherwise every lane adds its
/// own fields with plain atomics. Every kept field is added once per lane
/// either way.
template <typename B, int Laps, bool Full>
__device__ __forceinline__ void reduceStrip(const Strip<B, Laps> &s,
                                            std::bool_constant<Full>) {
  using T = typename B::Type;
  constexpr int V = Strip<B, Laps>::kValues;
  if constexpr (V == 0) {
    (void)s;
  } else if constexpr (Full) {
    constexpr int P = detail::stripValues(V);
    T v[P];
    T *a[P];
#pragma unroll
    for (int q = 0; q < V; ++q) {
      v[q] = s.val[q];
      a[q] = s.addr[q];
    }
#pragma unroll
    for (int q = V; q < P; ++q) {
      v[q] = T(0);
      a[q] = nullptr;
    }
    detail::halveAndIssue<P, 16>(v, a, static_cast<unsigned>(detail::laneId()));
  } else {
#pragma unroll
    for (int q = 0; q < V; ++q)
      if (s.addr[q] != nullptr)
        atomicAdd(s.addr[q], s.val[q]);
  }
}

/// Runs a strip loop, \p loop (a generic lambda around it), in one of two
/// versions: `loop(std::true_type{})` when all 32 lanes of the warp call
/// together and the site's threshold lets 32 lanes reduce, else
/// `loop(std::false_type{})`; the lambda hands its argument to every
/// reduceStrip. The caller proves that every lane that starts the loop runs
/// all of its iterations, so a warp whole at the start is whole at every
/// reduction. Deciding once, rather than at each reduction, leaves the loop
/// without a branch around its shuffles, which lets the compiler schedule a
/// pass's halving with its laps (diffuse cubemap, H100: 91% of the gap to
/// the floor instead of 84%, bench/RESULTS.md).
template <typename Threshold, typename Loop>
__device__ __forceinline__ void runStrips(Threshold threshold, Loop &&loop) {
  if (__activemask() == detail::kFullMask &&
      detail::allReach(detail::kFullMask, detail::kWarpSize, threshold))
    loop(std::true_type{});
  else
    loop(std::false_type{});
}

} // namespace distwar

#endif // DISTWAR_STRIP_CUH
