//===- EditPlannerTest.cpp - text edits for planned groups
//-----------------===//
//
// Emit writes what a plan says and decides nothing: the same group written
// from plans that differ in one field gets that field's text.
//
//===----------------------------------------------------------------------===//

#include "Emit/EditPlanner.h"
#include "Decide/GroupPlans.h"
#include "TestAST.h"
#include "clang/Tooling/Core/Replacement.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const kSerialKernel = R"cu(
  __global__ void k(const int2 *pairs, float3 *g, int *hits, int n) {
    for (int j = 0; j < n; ++j) {
      const int p = pairs[j * 32 + threadIdx.x % 32].x;
      atomicAdd(&g[p].x, 1.f);
      atomicAdd(&g[p].z, 0.5f);
      atomicAdd(&hits[p], 1);
    }
  })cu";

/// \p P's plan under --variant=serial.
RewritePlan serialPlan(Parsed &P) {
  std::vector<VariantDecision> Decisions =
      chooseVariants(P.context(), P.Sites, P.Groups, Variant::Serial);
  return planRewrite(P.context(), P.Sites, P.Groups, Variant::Serial, Decisions,
                     /*Headers=*/nullptr, false, false);
}

/// The main file's text with \p Plan's edits applied (compact layout).
std::string written(Parsed &P, const RewritePlan &Plan) {
  OutputLayout Layout;
  Layout.FormatStyle = "none";
  llvm::Expected<PlannedEdits> E =
      planEdits(P.context(), P.Sites, Plan, "/virtual/t.cu", nullptr, Layout);
  if (!E) {
    ADD_FAILURE() << llvm::toString(E.takeError());
    return "";
  }
  const clang::SourceManager &SM = P.context().getSourceManager();
  llvm::Expected<std::string> Out = clang::tooling::applyAllReplacements(
      SM.getBufferData(SM.getMainFileID()), E->Edits);
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return "";
  }
  return *Out;
}

size_t count(llvm::StringRef Text, llvm::StringRef What) {
  return Text.count(What);
}

TEST(EditPlanner, WritesTheSharedMatchThePlanNames) {
  Parsed P = parse(kSerialKernel);
  RewritePlan Plan = serialPlan(P);
  std::string Out = written(P, Plan);
  EXPECT_EQ(count(Out, "::distwar::reduceSerial("), 2u);
  EXPECT_EQ(count(Out, "::distwar::keepPeers(distwar_peers0)"), 1u);
  EXPECT_EQ(count(Out, "::distwar::reusePeers(distwar_peers0)"), 1u);
  EXPECT_EQ(count(Out, "DISTWAR_SITES("), 1u);
  EXPECT_NE(Out.find("\"k#0\", \"k#1\""), std::string::npos);
}

TEST(EditPlanner, APlanWithoutAChainWritesNoMatchSharing) {
  // The same groups, planned alone: only the plan changed, and so does the
  // text.
  Parsed P = parse(kSerialKernel);
  RewritePlan Plan = serialPlan(P);
  for (GroupPlan &G : Plan.Groups) {
    G.Chain = 0;
    G.SharesMatchWith.clear();
  }
  std::string Out = written(P, Plan);
  EXPECT_EQ(count(Out, "::distwar::reduceSerial("), 2u);
  EXPECT_EQ(count(Out, "Peers"), 0u);
}

TEST(EditPlanner, TheInitialThresholdGoesIntoTheTable) {
  Parsed P = parse(kSerialKernel);
  RewritePlan Plan = serialPlan(P);
  Plan.Groups[Plan.Order[1]].InitialThreshold = 33;
  std::string Out = written(P, Plan);
  EXPECT_NE(Out.find("DISTWAR_SITES_INITIAL("), std::string::npos);
  EXPECT_NE(Out.find("(0, 33)"), std::string::npos);
}

TEST(EditPlanner, AJointPlanWritesOneReductionOfTwoParts) {
  Parsed P = parse(kSerialKernel);
  RewritePlan Plan = serialPlan(P);
  GroupPlan &A = Plan.Groups[Plan.Order[0]];
  GroupPlan &B = Plan.Groups[Plan.Order[1]];
  A.Chain = B.Chain = 0;
  B.SharesMatchWith.clear();
  A.Joint = JointRole::First;
  B.Joint = JointRole::Later;
  B.ReducedWith = A.Name;
  std::string Out = written(P, Plan);
  EXPECT_EQ(count(Out, "::distwar::reduceSerialTogether("), 1u);
  EXPECT_EQ(count(Out, "::distwar::serialPart("), 2u);
  EXPECT_EQ(count(Out, "::distwar::reduceSerial("), 0u);
}

TEST(EditPlanner, AButterflyPlanWritesItsFlagAndReduction) {
  // ButterflyEdits: the key captured and the reduction after the group; a
  // uniform key (the loop counter) asked for the butterfly.
  Parsed P = parse(R"cu(
    __global__ void k(float2 *g, const float *__restrict__ x, int n) {
      for (int j = 0; j < n; ++j) {
        const float v = x[j];
        if (v < 0.f)
          continue;
        atomicAdd(&g[j].x, v);
        atomicAdd(&g[j].y, 2.f * v);
      }
    })cu");
  std::vector<VariantDecision> Decisions =
      chooseVariants(P.context(), P.Sites, P.Groups, Variant::Butterfly);
  RewritePlan Plan =
      planRewrite(P.context(), P.Sites, P.Groups, Variant::Butterfly,
                  Decisions, /*Headers=*/nullptr, false, false);
  ASSERT_EQ(Plan.Order.size(), 1u);
  ASSERT_TRUE(Plan.Groups[0].butterfly());
  std::string Out = written(P, Plan);
  EXPECT_EQ(count(Out, "::distwar::reduceButterfly"), 1u) << Out;
  EXPECT_EQ(count(Out, "distwar_active0 = false"), 1u) << Out;
  EXPECT_EQ(count(Out, "continue"), 0u) << Out;
}

TEST(EditPlanner, FloorPlanRewritesItsSitesOnly) {
  Parsed P = parse(kSerialKernel);
  RewritePlan Plan;
  Plan.Floor = true;
  Plan.FloorSites = {0};
  std::string Out = written(P, Plan);
  EXPECT_EQ(count(Out, "::distwar::floorAdd<float>("), 1u);
  EXPECT_EQ(count(Out, "atomicAdd("), 2u);
}

} // namespace
