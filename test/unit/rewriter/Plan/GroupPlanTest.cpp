//===- GroupPlanTest.cpp - how each group is rewritten, decided -----------===//

#include "Plan/GroupPlan.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

TEST(GroupPlan, EveryStrategyHasTheReportsName) {
  EXPECT_STREQ(strategyName(Strategy::Serial), "serial");
  EXPECT_STREQ(strategyName(Strategy::Butterfly), "butterfly");
  EXPECT_STREQ(strategyName(Strategy::ButterflyUniform), "butterfly-uniform");
  EXPECT_STREQ(strategyName(Strategy::Block), "block");
}

TEST(GroupPlan, BatchedWhenThereIsNoReasonButterflyByKind) {
  GroupPlan P;
  EXPECT_TRUE(P.batched());
  EXPECT_FALSE(P.butterfly());
  P.Kind = Strategy::ButterflyUniform;
  EXPECT_TRUE(P.butterfly());
  P.Kind = Strategy::Block;
  EXPECT_FALSE(P.butterfly());
  P.Why = Reason::StoreBetween;
  EXPECT_FALSE(P.batched());
}

} // namespace
