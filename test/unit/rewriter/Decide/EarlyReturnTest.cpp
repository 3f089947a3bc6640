//===- EarlyReturnTest.cpp - a return before the loop in the flag ---------===//

#include "Decide/EarlyReturn.h"
#include "Decide/Divergence.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// planEarlyReturn for the first group of \p P and the first loop, with
/// \p UniformTrips as planTrips found it.
Reason earlyReturnOf(Parsed &P, FlagPlan &Plan, bool UniformTrips = true) {
  if (P.Groups.empty() || forLoops(P.context()).empty()) {
    ADD_FAILURE() << "no group or no loop";
    return Reason::None;
  }
  const SiteGroup &G = P.Groups.front();
  UniformityAnalysis U(P.context(), G.Function);
  Plan.UniformTrips = UniformTrips;
  return planEarlyReturn(P.context(), G, U, forLoops(P.context()).front(),
                         Plan);
}

TEST(EarlyReturn, AGuardReturnBeforeTheLoopJoinsTheFlag) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *g, int w, int n, float v) {
      int px = threadIdx.x;
      $if^if (px >= w)
        return;
      for (int i = 0; i < n; ++i) {
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu");
  Parsed P = parse(Code.code());
  FlagPlan Plan;
  EXPECT_EQ(earlyReturnOf(P, Plan), Reason::None);
  ASSERT_TRUE(Plan.EarlyReturn);
  EXPECT_EQ(offsetOf(P.context(), Plan.EarlyReturn->getBeginLoc()),
            Code.point("if"));
}

TEST(EarlyReturn, NoReturnNothingToPlan) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, int n, float v) {
      for (int i = 0; i < n; ++i) {
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu");
  FlagPlan Plan;
  EXPECT_EQ(earlyReturnOf(P, Plan), Reason::None);
  EXPECT_FALSE(Plan.EarlyReturn);
}

TEST(EarlyReturn, WhatReturnedLanesWouldNowRunMustBeHarmless) {
  const char *const Cases[] = {
      // Code after the loop would run in lanes that returned.
      R"cu(
    __global__ void k(float *g, float *out, int w, int n, float v) {
      if (threadIdx.x >= w)
        return;
      for (int i = 0; i < n; ++i) {
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
      out[threadIdx.x] = v;
    })cu",
      // A load between the return and the loop may be out of range.
      R"cu(
    __global__ void k(float *g, const float *in, int w, int n) {
      if (threadIdx.x >= w)
        return;
      float v = in[threadIdx.x];
      for (int i = 0; i < n; ++i) {
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu",
      // Two returns.
      R"cu(
    __global__ void k(float *g, int w, int h, int n, float v) {
      if (threadIdx.x >= w)
        return;
      if (threadIdx.y >= h)
        return;
      for (int i = 0; i < n; ++i) {
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu",
      // A barrier in the loop, which the returned lanes never reached.
      R"cu(
    __global__ void k(float *g, int w, int n, float v) {
      if (threadIdx.x >= w)
        return;
      for (int i = 0; i < n; ++i) {
        __syncthreads();
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu",
  };
  for (const char *Code : Cases) {
    Parsed P = parse(Code);
    FlagPlan Plan;
    EXPECT_EQ(earlyReturnOf(P, Plan), Reason::EarlyReturn) << Code;
    EXPECT_FALSE(Plan.EarlyReturn);
  }
}

TEST(EarlyReturn, LanesMustRunTheSameIterations) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, int w, int n, float v) {
      if (threadIdx.x >= w)
        return;
      for (int i = 0; i < n; ++i) {
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu");
  FlagPlan Plan;
  EXPECT_EQ(earlyReturnOf(P, Plan, /*UniformTrips=*/false),
            Reason::EarlyReturn);
}

} // namespace
