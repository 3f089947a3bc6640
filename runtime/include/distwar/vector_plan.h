//===- distwar/vector_plan.h - Adjacent fields cut into vector atomics ----===//
//
// sm_90 adds four adjacent floats of global memory with one atomic
// instruction (`atomicAdd(float4 *)`) if their first address is 16-byte
// aligned. A run of adjacent fields of a batch (distwar::Adjacent) is cut
// into such vectors and single floats at places that depend only on where
// the run starts within 16 bytes; they are constants, so the reductions
// compile one straight line of atomics (reduce.cuh, issueAdjacent). Pairs
// (`atomicAdd(float2 *)`) are not used: on the 3DGS backward's conic (x and
// y of a float4) they cost 0.7 to 1.4 points of the gap to the floor (H200,
// bench/RESULTS.md), as they did on the texture's channels. Plain C++, so
// that a CPU test can check every cut.
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

/// The first float of a run that starts a 16-byte block, for a run whose
/// first float lies `phase` floats (0..3) past a 16-byte boundary. The run's
/// vectors start there and every four floats after.
constexpr DISTWAR_PLAN_HD int firstVector(int phase) { return (4 - phase) % 4; }

/// How many 16-byte blocks (float4 atomics) a run of `len` floats from
/// `phase` holds; every other float of the run is added on its own, which
/// is the fewest atomics that float4 and single floats allow.
constexpr DISTWAR_PLAN_HD int vectorsIn(int phase, int len) {
  return len >= firstVector(phase) + 4 ? (len - firstVector(phase)) / 4 : 0;
}

/// Whether a run holds a 16-byte block (the rewriter marks no other run).
constexpr DISTWAR_PLAN_HD bool holdsVector(int phase, int len) {
  return vectorsIn(phase, len) > 0;
}

} // namespace detail
} // namespace distwar

#undef DISTWAR_PLAN_HD

#endif // DISTWAR_VECTOR_PLAN_H
