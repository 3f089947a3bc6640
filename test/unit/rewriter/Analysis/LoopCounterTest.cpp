//===- LoopCounterTest.cpp - counters with a constant range ---------------===//

#include "Analysis/LoopCounter.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(LoopCounter, BoundsFromTheCondition) {
  Parsed P = parse(R"cu(
    __global__ void k(int n, bool go) {
      for (int j = 2; j < min(64, n); j++) {}
      for (int j = 0; go && j <= 15; ++j) {}
      for (int j = 0; j < n; j++) {}
      for (int j = 0; j < 8; j++) { j += 0; }
      for (int j = n; j < 8; j++) {}
    })cu");
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 5u);
  std::optional<BoundedCounter> A = boundedCounter(Ctx, Loops[0]);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Start, 2);
  EXPECT_EQ(A->Max, 63);
  std::optional<BoundedCounter> B = boundedCounter(Ctx, Loops[1]);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Max, 15);
  EXPECT_FALSE(boundedCounter(Ctx, Loops[2])); // no constant bound
  EXPECT_FALSE(boundedCounter(Ctx, Loops[3])); // written in the body
  EXPECT_FALSE(boundedCounter(Ctx, Loops[4])); // start not a constant
}

} // namespace
