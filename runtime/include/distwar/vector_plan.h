//===- distwar/vector_plan.h - Adjacent fields cut into vector atomics ----===//
//
// sm_90 adds four adjacent floats of global memory with one atomic
// instruction (`atomicAdd(float4 *)`) if their first address is 16-byte
// aligned. A run of adjacent fields of a batch (distwar::Adjacent) is cut
// into such vectors and single floats by a plan that depends only on where
// the run starts within 16 bytes; the plans are constants, so the reductions
// compile one straight line of atomics (reduce.cuh, issueAdjacent). Pairs
// (`atomicAdd(float2 *)`) are not used: on the 3DGS backward's conic (x and
// y of a float4) they cost 0.7 to 1.4 points of the gap to the floor (H200,
// bench/RESULTS.md), as they did on the texture's channels. Plain C++, so
// that a CPU test can check every plan.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_VECTOR_PLAN_H
#define DISTWAR_VECTOR_PLAN_H

#if defined(__CUDACC__)
#define DISTWAR_PLAN_HD __host__ __device__
#else
#define DISTWAR_PLAN_HD
#endif

namespace distwar {
namespace detail {

/// Fields [begin, begin + width) of a run, added as one atomic of `width`
/// floats (1 or 4).
struct VectorPiece {
  int begin = 0;
  int width = 0;
};

/// A run of Len fields cut into pieces, in order.
template <int Len> struct VectorPlan {
  VectorPiece piece[Len > 0 ? Len : 1] = {};
  int count = 0;
};

/// The plan of a run of Len floats whose first lies `phase` floats (0..3)
/// past a 16-byte boundary: every 16-byte block inside the run is one
/// piece of four, every other float a piece of its own (the fewest atomics
/// that pieces of 1 and 4 allow).
template <int Len>
constexpr DISTWAR_PLAN_HD VectorPlan<Len> vectorPlan(int phase) {
  VectorPlan<Len> plan;
  for (int j = 0; j < Len;) {
    const int at = (phase + j) % 4;
    const int width = at == 0 && j + 4 <= Len ? 4 : 1;
    plan.piece[plan.count].begin = j;
    plan.piece[plan.count].width = width;
    ++plan.count;
    j += width;
  }
  return plan;
}

/// Whether a run of `len` floats from `phase` holds a 16-byte block, so
/// that its plan has a piece of four (the rewriter marks no other run).
constexpr DISTWAR_PLAN_HD bool holdsVector(int phase, int len) {
  return len >= 4 + (4 - phase) % 4;
}

} // namespace detail
} // namespace distwar

#undef DISTWAR_PLAN_HD

#endif // DISTWAR_VECTOR_PLAN_H
