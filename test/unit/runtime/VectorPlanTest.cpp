//===- VectorPlanTest.cpp - Runs of adjacent floats cut into vectors ------===//
//
// Every plan of distwar/vector_plan.h, for runs of 1 to 32 floats at each
// phase: the pieces cover the run once, in order; each is 1 float or 4
// floats from a 16-byte boundary; and the plan takes the fewest atomics,
// which a brute-force search over every cut confirms.
//
//===----------------------------------------------------------------------===//

#include "distwar/vector_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

using namespace distwar::detail;

namespace {

/// Whether `width` floats from float `at` of a run may be one atomic.
bool aligned(int phase, int at, int width) {
  return width == 1 || (width == 4 && (phase + at) % 4 == 0);
}

/// The fewest aligned pieces of 1 or 4 floats covering [at, len).
int fewestPieces(int phase, int at, int len, std::vector<int> &memo) {
  if (at == len)
    return 0;
  int &best = memo[at];
  if (best >= 0)
    return best;
  best = len + 1;
  for (int width : {1, 4})
    if (at + width <= len && aligned(phase, at, width))
      best = std::min(best, 1 + fewestPieces(phase, at + width, len, memo));
  return best;
}

template <int Len> void checkPlans() {
  for (int phase = 0; phase < 4; ++phase) {
    SCOPED_TRACE("run of " + std::to_string(Len) + " floats, phase " +
                 std::to_string(phase));
    const VectorPlan<Len> plan = vectorPlan<Len>(phase);
    int next = 0, vectors = 0;
    for (int p = 0; p < plan.count; ++p) {
      const VectorPiece piece = plan.piece[p];
      EXPECT_EQ(piece.begin, next);
      EXPECT_TRUE(aligned(phase, piece.begin, piece.width));
      vectors += piece.width == 4;
      next = piece.begin + piece.width;
    }
    EXPECT_EQ(next, Len);
    EXPECT_EQ(vectors > 0, holdsVector(phase, Len));
    std::vector<int> memo(Len, -1);
    EXPECT_EQ(plan.count, fewestPieces(phase, 0, Len, memo));
  }
}

template <int... Len> void checkEvery(std::integer_sequence<int, Len...>) {
  (checkPlans<Len + 1>(), ...);
}

} // namespace

TEST(VectorPlan, EveryRunAndPhaseIsCoveredByTheFewestAlignedVectors) {
  checkEvery(std::make_integer_sequence<int, 32>());
}

TEST(VectorPlan, AStructOfTwelveFloatsIsThreeVectors) {
  // Four float3 members of a 48-byte element, from its start.
  constexpr VectorPlan<12> plan = vectorPlan<12>(0);
  static_assert(plan.count == 3, "three float4 atomics");
  EXPECT_EQ(plan.piece[1].begin, 4);
  EXPECT_EQ(plan.piece[2].width, 4);
}

TEST(VectorPlan, AFloat4sXAndYAreNoVector) {
  EXPECT_FALSE(holdsVector(0, 2));
  EXPECT_FALSE(holdsVector(1, 6)); // floats 1..6: the block 4..7 is cut
  EXPECT_TRUE(holdsVector(1, 7));
  EXPECT_TRUE(holdsVector(0, 4));
}
