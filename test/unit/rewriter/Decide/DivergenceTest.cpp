//===- DivergenceTest.cpp - active flags for per-lane control flow --------===//
//
// When lanes of a group may leave the iteration or skip the group, an
// active flag keeps them in step: which continues and conditions it takes
// over, and the ifs that cannot hold a group.
//
//===----------------------------------------------------------------------===//

#include "Decide/Divergence.h"
#include "Analysis/Uniformity.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The active-flag plan of the only group of \p P.
Reason planFirstGroup(Parsed &P, FlagPlan &Plan) {
  EXPECT_EQ(P.Groups.size(), 1u);
  if (P.Groups.empty())
    return Reason::NotInLoop;
  UniformityAnalysis U(P.context(), P.Groups[0].Function);
  return planActiveFlag(P.context(), P.Sites, P.Groups[0], U, Plan);
}

TEST(Divergence, ContinuesAndLoopTermBecomeOneFlag) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *x, int n, int w) {
      const bool done = threadIdx.x >= w;
      for (int j = 0; !done && j < n; ++j) {
        if (x[j] > 0.f)
          continue;
        atomicAdd(&g[j], x[j]);
      }
    })cu");
  ASSERT_EQ(P.Groups.size(), 1u);
  UniformityAnalysis U(P.context(), P.Groups[0].Function);
  FlagPlan Plan;
  EXPECT_EQ(planActiveFlag(P.context(), P.Sites, P.Groups[0], U, Plan),
            Reason::None);
  EXPECT_EQ(Plan.LiveInit, "(!done)");
  EXPECT_EQ(Plan.Continues.size(), 1u);
  EXPECT_TRUE(Plan.GuardFromStart);
  EXPECT_TRUE(Plan.UniformTrips);
  EXPECT_EQ(U.classifyKey(P.Sites[0].Key), KeyUniformity::Uniform);
}

TEST(Divergence, GroupInElseIfArmIsHeldByTheOutermostIf) {
  Parsed P = parse(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      for (int i = 0; i < n; ++i) {
        const float a = x[i];
        if (a > 2.f) {
          ga[n] = a;
        } else if (a > 0.f) {
          if (a < 1.f) {
            atomicAdd(&ga[i], a);
            atomicAdd(&gb[i], a);
          }
        }
      }
    })cu");
  FlagPlan Plan;
  ASSERT_EQ(planFirstGroup(P, Plan), Reason::None);
  EXPECT_TRUE(Plan.GroupUnderIf);
  EXPECT_TRUE(Plan.LiveInit.empty());
  const auto *Holder = llvm::dyn_cast<clang::IfStmt>(Plan.Holder);
  ASSERT_TRUE(Holder);
  EXPECT_EQ(scopeStatements(Plan.Body).back(), Holder);
  EXPECT_TRUE(llvm::isa<clang::IfStmt>(Holder->getElse()));
}

TEST(Divergence, LoopBodyWithoutBracesIsItsOwnHolder) {
  // The flag and batch go before the body's one statement and the
  // reduction after it, inside the braces the rewrite adds.
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, const float *x, int n,
                      int w) {
      const bool done = threadIdx.x >= w;
      for (int j = 0; !done && j < n; ++j)
        atomicAdd(&g[ids[j] ], x[j]);
    })cu");
  FlagPlan Plan;
  ASSERT_EQ(planFirstGroup(P, Plan), Reason::None);
  const clang::ForStmt *Loop = forLoops(P.context()).front();
  EXPECT_EQ(Plan.Body, Loop);
  EXPECT_EQ(Plan.Holder, Loop->getBody());
  EXPECT_FALSE(Plan.GroupUnderIf);
  EXPECT_EQ(Plan.LiveInit, "(!done)");
  EXPECT_TRUE(Plan.GuardFromStart);
}

TEST(Divergence, IfsThatCannotHoldTheGroup) {
  auto Why = [](llvm::StringRef Code) {
    Parsed P = parse(Code);
    FlagPlan Plan;
    return planFirstGroup(P, Plan);
  };
  EXPECT_EQ(Why(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      int seen = 0;
      for (int i = 0; i < n; ++i) {
        if (x[i] > 0.f) {
          if (++seen > 2) {
            atomicAdd(&ga[i], x[i]);
            atomicAdd(&gb[i], x[i]);
          }
        }
      }
    })cu"),
            Reason::ConditionSideEffects);
  EXPECT_EQ(Why(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      for (int i = 0; i < n; ++i) {
        if (const float a = x[i]; a > 0.f) {
          atomicAdd(&ga[i], a);
          atomicAdd(&gb[i], a);
        }
      }
    })cu"),
            Reason::IfForm);
  EXPECT_EQ(Why(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      for (int i = 0; i < n; ++i) {
        if (x[i] > 0.f) {
          atomicAdd(&ga[i], x[i]);
          atomicAdd(&gb[i], x[i]);
        } else {
          continue;
        }
      }
    })cu"),
            Reason::UnconvertibleContinue);
}

} // namespace
