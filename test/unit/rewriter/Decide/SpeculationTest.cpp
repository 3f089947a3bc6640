//===- SpeculationTest.cpp - statements safe to run in skipped lanes ------===//

#include "Decide/Speculation.h"
#include "Decide/Divergence.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const SpeculationCode = R"cu(
    struct Pair { float a, b; };
    __global__ void k(float *g, const float *in, float v) {
      __shared__ float tile[32];
      for (int i = 0; i < 32; ++i) {
        float a = v * 2.f + sqrtf(v);
        float b = in[i];
        float c = tile[i];
        if (a > 1.f) continue;
        ;
        g[i] = a;
        float &r = a;
        float e = tile[i + 1];
        Pair p{a, c};
        if (a > 2.f) { continue; }
        if (a > 3.f) continue; else a = 0.f;
        float f = a > 0.f ? a : -a;
        atomicAdd(&g[i], a + b + c + e + r + p.a + f);
      }
    })cu";

/// The statements of the first loop's body in \p P.
std::vector<clang::Stmt *> loopBody(Parsed &P) {
  const auto *Body =
      llvm::cast<clang::CompoundStmt>(forLoops(P.context()).front()->getBody());
  return std::vector<clang::Stmt *>(Body->body_begin(), Body->body_end());
}

TEST(Speculation, WhichStatementsMayRunInSkippedLanes) {
  Parsed P = parse(SpeculationCode);
  SpeculationCheck Check(P.context(), forLoops(P.context()).front());
  std::vector<clang::Stmt *> Body = loopBody(P);
  const bool Expected[] = {
      true,  // pure arithmetic and a known math function
      false, // a load may fault in a lane whose index is out of range
      true,  // a __shared__ element at the counter the condition bounds
      true,  // `if (c) continue;` only lowers the flag
      true,  // an empty statement
      false, // a store
      false, // a reference
      false, // a __shared__ element past the proven range
      true,  // a trivially copyable local
      true,  // the continue in braces
      false, // an if with an else
      true,  // a conditional expression
      false, // the atomic
  };
  ASSERT_EQ(Body.size(), std::size(Expected));
  for (size_t I = 0; I < Body.size(); ++I)
    EXPECT_EQ(Check.statement(Body[I]), Expected[I]) << "statement " << I;
}

TEST(Speculation, NoBoundedCounterNoSharedReads) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, int n) {
      __shared__ float tile[32];
      for (int i = 0; i < n; ++i) {
        float c = tile[i];
        atomicAdd(&g[i], c);
      }
    })cu");
  SpeculationCheck Check(P.context(), forLoops(P.context()).front());
  EXPECT_FALSE(Check.statement(loopBody(P).front()));
  EXPECT_TRUE(Check.expression(nullptr));
}

const char *const PlanSpeculationCode = R"cu(
    __global__ void k(float *g, const float *in, float v, int n) {
      for (int i = 0; i < n; ++i) {
        float a = v * 2.f;
        if (a > 1.f) continue;
        float b = a + 1.f;
        if (b > 2.f) continue;
        atomicAdd(&g[i], b);
      }
      for (int i = 0; i < n; ++i) {
        float a = v * 2.f;
        if (a > 1.f) continue;
        float b = in[i];
        if (b > 2.f) continue;
        atomicAdd(&g[i], b);
      }
    })cu";

TEST(Speculation, APureStretchBetweenContinuesRunsUnguarded) {
  Parsed P = parse(PlanSpeculationCode);
  const clang::ForStmt *Loop = forLoops(P.context())[0];
  const auto *Body = llvm::cast<clang::CompoundStmt>(Loop->getBody());
  llvm::ArrayRef<clang::Stmt *> Stmts(Body->body_begin(), Body->body_end());
  FlagPlan Plan;
  planSpeculation(P.context(), Loop, Stmts, {1, 3}, /*H=*/4,
                  /*GuardBegin=*/2, Plan);
  EXPECT_EQ(Plan.AnyAfter, Stmts[1]);
  EXPECT_FALSE(Plan.AnyFromStart);
  EXPECT_EQ(Plan.CloseBeforeAny, 0u);
  // The any-branch, and the guard after the last continue.
  EXPECT_EQ(Plan.GuardsOpen, 2u);
}

TEST(Speculation, ALoadInTheStretchKeepsPerLaneGuards) {
  Parsed P = parse(PlanSpeculationCode);
  const clang::ForStmt *Loop = forLoops(P.context())[1];
  const auto *Body = llvm::cast<clang::CompoundStmt>(Loop->getBody());
  llvm::ArrayRef<clang::Stmt *> Stmts(Body->body_begin(), Body->body_end());
  FlagPlan Plan;
  planSpeculation(P.context(), Loop, Stmts, {1, 3}, /*H=*/4,
                  /*GuardBegin=*/2, Plan);
  EXPECT_FALSE(Plan.AnyAfter);
  EXPECT_FALSE(Plan.AnyFromStart);
  EXPECT_TRUE(Plan.Unguarded.empty());
  EXPECT_EQ(Plan.GuardsOpen, 0u); // left as planGuards counts them
}

} // namespace
