//===- ChannelLoopMatchTest.cpp - loops over a primitive's channels -------===//

#include "Find/ChannelLoopMatch.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(ChannelLoopMatch, ACountedLoopWithConstantBounds) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *v, int i) {
      for (int c = 1; c < 4; ++c)
        atomicAdd(&g[i * 4 + c], v[c]);
    })cu");
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 1u);
  std::optional<ChannelLoop> CL =
      matchChannelLoop(Loops[0], nullptr, P.context());
  ASSERT_TRUE(CL);
  EXPECT_EQ(CL->LowerText, "1");
  EXPECT_EQ(CL->UpperText, "4");
  EXPECT_FALSE(CL->LowerIsZero);
  EXPECT_FALSE(CL->runTimeTrip());
}

TEST(ChannelLoopMatch, ALoopThatWritesItsCounterOrLeavesIsNone) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *v, int i) {
      for (int c = 0; c < 4; ++c) {
        atomicAdd(&g[i * 4 + c], v[c]);
        c += 1;
      }
      for (int c = 0; c < 4; ++c) {
        if (v[c] < 0.f)
          break;
        atomicAdd(&g[i * 4 + c], v[c]);
      }
    })cu");
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 2u);
  EXPECT_FALSE(matchChannelLoop(Loops[0], nullptr, P.context()));
  EXPECT_FALSE(matchChannelLoop(Loops[1], nullptr, P.context()));
}

TEST(ChannelLoopMatch, ARunTimeBoundIsNoConstantTrip) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *v, int i, int C) {
      for (int c = 0; c < C; ++c)
        atomicAdd(&g[i * 4 + c], v[c]);
    })cu");
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 1u);
  EXPECT_FALSE(matchChannelLoop(Loops[0], nullptr, P.context()));
}

} // namespace
