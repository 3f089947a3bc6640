//===- LaunchTuningTest.cpp - wrap the launches of kernels with sites -----===//

#include "Emit/LaunchTuning.h"
#include "TestAST.h"
#include "clang/Basic/SourceManager.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const LaunchCode = R"cu(
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      atomicAdd(&g[i * 2 + 1], v);
    }
    __global__ void other(float *g) { g[0] = 1.f; }
    void launch(float *g, const int *ids, float v, void *stream) {
      k<<<1, 32, 0, stream>>>(g, ids, v);
      other<<<1, 32>>>(g);
      k<<<2, 64>>>(g, ids, v);
    })cu";

/// A plan of \p P's groups: the first one batched as "k#0" unless \p Why.
RewritePlan planOf(const Parsed &P, Verdict Why = Reason::None) {
  RewritePlan Plan;
  for (const SiteGroup &G : P.Groups) {
    GroupPlan GP;
    GP.Group = &G;
    GP.Why = Plan.Groups.empty() ? Why : Verdict(Reason::StoreBetween);
    GP.Name = GP.batched() ? "k#0" : "";
    Plan.Groups.push_back(GP);
  }
  return Plan;
}

/// The main file with planLaunchTuning's edits for \p Plan, and how many it
/// wrapped.
std::string tunedLaunches(Parsed &P, const RewritePlan &Plan,
                          unsigned &Wrapped) {
  clang::tooling::Replacements Edits;
  llvm::Expected<unsigned> N =
      planLaunchTuning(P.context(), Plan, "/virtual/t.cu", {}, Edits);
  if (!N) {
    ADD_FAILURE() << llvm::toString(N.takeError());
    return "";
  }
  Wrapped = *N;
  const clang::SourceManager &SM = P.context().getSourceManager();
  return llvm::cantFail(clang::tooling::applyAllReplacements(
      SM.getBufferData(SM.getMainFileID()), Edits));
}

TEST(LaunchTuning, LaunchesOfKernelsWithBatchedGroupsAreWrapped) {
  Parsed P = parse(LaunchCode);
  ASSERT_EQ(P.Groups.size(), 1u);
  ASSERT_EQ(P.Groups[0].Why, Reason::None);
  unsigned Wrapped = 0;
  std::string Text = tunedLaunches(P, planOf(P), Wrapped);
  EXPECT_EQ(Wrapped, 2u);
  EXPECT_NE(Text.find("{ static ::distwar::LaunchTuner distwar_tuner0(\"k\", "
                      "{{&"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find(", \"k#0\"}}); ::distwar::LaunchTicket distwar_ticket0 "
                      "= distwar_tuner0.begin(stream); k<<<1, 32, 0, "
                      "stream>>>(g, ids, v); distwar_tuner0.end("
                      "distwar_ticket0); }"),
            std::string::npos)
      << Text;
  // A launch without a stream argument runs on stream 0.
  EXPECT_NE(Text.find("distwar_tuner1.begin(0); k<<<2, 64>>>(g, ids, v); "
                      "distwar_tuner1.end(distwar_ticket1); }"),
            std::string::npos)
      << Text;
  // A kernel without groups is launched as it was.
  EXPECT_NE(Text.find("\n      other<<<1, 32>>>(g);\n"), std::string::npos)
      << Text;
}

TEST(LaunchTuning, GroupsNotBatchedWrapNothing) {
  Parsed P = parse(LaunchCode);
  unsigned Wrapped = 1;
  EXPECT_NE(tunedLaunches(P, planOf(P, Reason::StoreBetween), Wrapped), "");
  EXPECT_EQ(Wrapped, 0u);
}

} // namespace
