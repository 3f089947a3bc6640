//===- LoopBodyShapeTest.cpp - where a group sits in a loop body ----------===//

#include "Decide/LoopBodyShape.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(LoopBodyShape, ContinuesAreCollectedReturnsRefuse) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *x, int n) {
      for (int j = 0; j < n; ++j) {
        if (x[j] < 0.f)
          continue;
        if (x[j] > 2.f)
          continue;
        atomicAdd(&g[j], x[j]);
      }
      for (int j = 0; j < n; ++j) {
        if (x[j] < 0.f)
          return;
        atomicAdd(&g[j], x[j]);
      }
    })cu");
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 2u);
  ExitScan First;
  scanExits(Loops[0]->getBody(), First);
  EXPECT_EQ(First.Why, Reason::None);
  EXPECT_EQ(First.Continues.size(), 2u);
  ExitScan Second;
  scanExits(Loops[1]->getBody(), Second);
  EXPECT_NE(Second.Why, Reason::None);
}

TEST(LoopBodyShape, AContinueLastInItsBranchConvertsOneBeforeMoreCodeNot) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *x, float *out, int n) {
      for (int j = 0; j < n; ++j) {
        if (x[j] < 0.f)
          continue;
        if (x[j] > 2.f) {
          continue;
          out[j] = 1.f;
        }
        atomicAdd(&g[j], x[j]);
      }
    })cu");
  const clang::ForStmt *Loop = forLoops(P.context())[0];
  ExitScan Scan;
  scanExits(Loop->getBody(), Scan);
  ASSERT_EQ(Scan.Continues.size(), 2u);
  const auto *Body = llvm::cast<clang::CompoundStmt>(Loop->getBody());
  UniformityAnalysis U(P.context(), function(P.context(), "k"));
  EXPECT_TRUE(isConvertibleContinue(Scan.Continues[0], Body->body_begin()[0], U));
  EXPECT_FALSE(isConvertibleContinue(Scan.Continues[1], Body->body_begin()[1], U));
}

} // namespace
