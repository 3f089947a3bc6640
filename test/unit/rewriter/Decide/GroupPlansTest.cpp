//===- GroupPlansTest.cpp - every decision of a file, as one plan
//----------===//
//
// The plan Decide hands Emit: batched groups named in text order, serial
// groups of one key sharing a match, the block strategy only where it is
// asked for, and the floor variant's sites.
//
//===----------------------------------------------------------------------===//

#include "Decide/GroupPlans.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// \p P's plan under \p V, every group's variant chosen first (the form
/// chosen at run time, as the tool does by default).
RewritePlan planOf(Parsed &P, Variant V, bool BlockStrategy = false,
                   bool RunTimeForm = true) {
  std::vector<VariantDecision> Decisions;
  if (V != Variant::Floor)
    Decisions = chooseVariants(P.context(), P.Sites, P.Groups, V);
  return planRewrite(P.context(), P.Sites, P.Groups, V, Decisions,
                     /*Headers=*/nullptr, BlockStrategy, RunTimeForm);
}

const char *const kTwoKeys = R"cu(
  __global__ void k(const int *ids, float *g, int *hits, int n, float w) {
    for (int j = 0; j < n; ++j) {
      const int id = ids[j * 32 + threadIdx.x % 32];
      atomicAdd(&g[2 * id], w);
      atomicAdd(&g[2 * id + 1], w);
      atomicAdd(&hits[id], 1);
    }
  })cu";

TEST(GroupPlans, BatchedGroupsAreNamedAndTabledInTextOrder) {
  Parsed P = parse(kTwoKeys);
  RewritePlan Plan = planOf(P, Variant::Serial);
  ASSERT_EQ(Plan.Groups.size(), 2u);
  ASSERT_EQ(Plan.Order.size(), 2u);
  const GroupPlan &A = Plan.Groups[Plan.Order[0]];
  const GroupPlan &B = Plan.Groups[Plan.Order[1]];
  EXPECT_EQ(A.Name, "k#0");
  EXPECT_EQ(B.Name, "k#1");
  EXPECT_EQ(A.TableIndex, 0u);
  EXPECT_EQ(B.TableIndex, 1u);
  EXPECT_EQ(A.Slots.Size, "2");
  EXPECT_EQ(A.Slots.SlotTexts, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(A.Kind, Strategy::Serial);
}

TEST(GroupPlans, TheSecondGroupOfOneKeyReusesTheFirstsMatch) {
  Parsed P = parse(kTwoKeys);
  RewritePlan Plan = planOf(P, Variant::Serial);
  const GroupPlan &A = Plan.Groups[Plan.Order[0]];
  const GroupPlan &B = Plan.Groups[Plan.Order[1]];
  ASSERT_NE(A.Chain, 0u);
  EXPECT_EQ(A.Chain, B.Chain);
  EXPECT_EQ(A.SharesMatchWith, "");
  EXPECT_EQ(B.SharesMatchWith, "k#0");
}

TEST(GroupPlans, BlockStrategyOnlyWhereAskedFor) {
  const char *Code = R"cu(
    __global__ void k(const int *ids, float *g, int n, float w) {
      for (int j = 0; j < n; ++j) {
        const int id = ids[j * 32 + threadIdx.x % 32];
        atomicAdd(&g[2 * id], w);
        atomicAdd(&g[2 * id + 1], w);
      }
    })cu";
  Parsed Off = parse(Code);
  RewritePlan Plain = planOf(Off, Variant::Auto);
  ASSERT_EQ(Plain.Order.size(), 1u);
  EXPECT_NE(Plain.Groups[0].Kind, Strategy::Block);

  Parsed On = parse(Code);
  RewritePlan Block = planOf(On, Variant::Auto, /*BlockStrategy=*/true);
  ASSERT_EQ(Block.Order.size(), 1u);
  const GroupPlan &G = Block.Groups[0];
  if (G.Kind == Strategy::Block) {
    ASSERT_TRUE(G.AddrOf.has_value());
    EXPECT_NE(G.AddrOf->find("distwar_key"), std::string::npos);
  } else {
    // A butterfly (auto found the key uniform) never takes the block.
    EXPECT_TRUE(G.butterfly());
  }
}

TEST(GroupPlans, AutoButterfliesTakeTheSerialFormWhereItCouldDiffer) {
  // One key for the whole grid, so the butterfly; the continue leaves
  // lanes inactive, which the serial form would reduce without.
  const char *Skips = R"cu(
    __global__ void k(const float *__restrict__ x, float *g, int n, int key) {
      for (int j = 0; j < n; ++j) {
        if (x[j * 32 + threadIdx.x % 32] < 0.f)
          continue;
        atomicAdd(&g[2 * key], x[j]);
        atomicAdd(&g[2 * key + 1], x[j]);
      }
    })cu";
  // Every lane reduces the warp's one key: both forms are one tree.
  const char *Straight = R"cu(
    __global__ void k(const float *__restrict__ x, float *g, int n, int key) {
      for (int j = 0; j < n; ++j) {
        atomicAdd(&g[2 * key], x[j]);
        atomicAdd(&g[2 * key + 1], x[j]);
      }
    })cu";
  Parsed S = parse(Skips);
  RewritePlan Auto = planOf(S, Variant::Auto);
  ASSERT_EQ(Auto.Order.size(), 1u);
  ASSERT_TRUE(Auto.Groups[0].butterfly());
  EXPECT_TRUE(Auto.Groups[0].SerialForm);
  EXPECT_FALSE(planOf(S, Variant::Auto, false, /*RunTimeForm=*/false)
                   .Groups[0]
                   .SerialForm);
  EXPECT_FALSE(planOf(S, Variant::Butterfly).Groups[0].SerialForm);
  Parsed T = parse(Straight);
  RewritePlan Uniform = planOf(T, Variant::Auto);
  ASSERT_EQ(Uniform.Order.size(), 1u);
  EXPECT_EQ(Uniform.Groups[0].Kind, Strategy::ButterflyUniform);
  EXPECT_FALSE(Uniform.Groups[0].SerialForm);
}

TEST(GroupPlans, AGroupLeftAloneHasNoPlanToWrite) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, float w) {
      float old = atomicAdd(&g[threadIdx.x], w);
      g[0] = old;
    })cu");
  RewritePlan Plan = planOf(P, Variant::Serial);
  EXPECT_TRUE(Plan.Order.empty());
  for (const GroupPlan &G : Plan.Groups)
    EXPECT_FALSE(G.batched());
}

TEST(GroupPlans, FloorPlansEveryUnusedResultAdd) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, float *h, float w) {
      atomicAdd(&g[threadIdx.x], w);
      float old = atomicAdd(&h[threadIdx.x], w);
      h[0] = old;
    })cu");
  RewritePlan Plan = planOf(P, Variant::Floor);
  EXPECT_TRUE(Plan.Floor);
  EXPECT_TRUE(Plan.Order.empty());
  ASSERT_EQ(Plan.FloorSites.size(), 1u);
  EXPECT_EQ(P.Sites[Plan.FloorSites[0]].Line, 3u);
}

} // namespace
