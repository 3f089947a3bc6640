//===- VectorPlanTest.cpp - Runs of adjacent floats cut into vectors ------===//
//
// Every cut of distwar/vector_plan.h, for runs of 1 to 32 floats at each
// phase: the vectors (four floats from firstVector, every four floats) and
// the single floats left cover the run once, in order; each vector starts
// on a 16-byte boundary; and the cut takes the fewest atomics, which a
// brute-force search over every cut confirms.
//
//===----------------------------------------------------------------------===//

#include "distwar/vector_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
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

/// The pieces (begin, width) of a run: its vectors where vector_plan.h puts
/// them, every other float on its own.
std::vector<std::pair<int, int>> pieces(int phase, int len) {
  std::vector<std::pair<int, int>> cut;
  const int first = firstVector(phase), vectors = vectorsIn(phase, len);
  for (int j = 0; j < len;) {
    const bool vector =
        j >= first && (j - first) % 4 == 0 && (j - first) / 4 < vectors;
    cut.push_back({j, vector ? 4 : 1});
    j += vector ? 4 : 1;
  }
  return cut;
}

void checkCuts(int len) {
  for (int phase = 0; phase < 4; ++phase) {
    SCOPED_TRACE("run of " + std::to_string(len) + " floats, phase " +
                 std::to_string(phase));
    int next = 0, vectors = 0;
    const std::vector<std::pair<int, int>> cut = pieces(phase, len);
    for (auto [begin, width] : cut) {
      EXPECT_EQ(begin, next);
      EXPECT_TRUE(aligned(phase, begin, width));
      vectors += width == 4;
      next = begin + width;
    }
    EXPECT_EQ(next, len);
    EXPECT_EQ(vectors, vectorsIn(phase, len));
    EXPECT_EQ(vectors > 0, holdsVector(phase, len));
    std::vector<int> memo(len, -1);
    EXPECT_EQ(static_cast<int>(cut.size()), fewestPieces(phase, 0, len, memo));
  }
}

} // namespace

TEST(VectorPlan, EveryRunAndPhaseIsCoveredByTheFewestAlignedVectors) {
  for (int len = 1; len <= 32; ++len)
    checkCuts(len);
}

TEST(VectorPlan, AStructOfTwelveFloatsIsThreeVectors) {
  // Four float3 members of a 48-byte element, from its start.
  static_assert(vectorsIn(0, 12) == 3, "three float4 atomics");
  const std::vector<std::pair<int, int>> cut = pieces(0, 12);
  ASSERT_EQ(cut.size(), 3u);
  EXPECT_EQ(cut[1].first, 4);
  EXPECT_EQ(cut[2].second, 4);
}

TEST(VectorPlan, AFloat4sXAndYAreNoVector) {
  EXPECT_FALSE(holdsVector(0, 2));
  EXPECT_FALSE(holdsVector(1, 6)); // floats 1..6: the block 4..7 is cut
  EXPECT_TRUE(holdsVector(1, 7));
  EXPECT_TRUE(holdsVector(0, 4));
}
