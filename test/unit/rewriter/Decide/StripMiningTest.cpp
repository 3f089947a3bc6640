//===- StripMiningTest.cpp - may a uniform loop reduce laps together? -----===//
//
// stripLoopOf takes the variant decision of a group, which only the whole
// pipeline makes: these tests rewrite whole files and read the decision
// back from the report (GroupRecord::Strip) and the output.
//
//===----------------------------------------------------------------------===//

#include "TestAST.h"
#include "distwar-rewrite/Rewriter.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The rewrite of \p Code with --variant=auto, or a failure.
std::optional<RewriteResult> rewriteForStrips(llvm::StringRef Code) {
  FrontEnd Front(hermeticArgs());
  Front.AlwaysParse = true;
  OutputLayout Layout;
  Layout.FormatStyle = "none";
  llvm::Expected<RewriteResult> R = rewriteSource(
      "/virtual/strips.cu", Code, Front, Variant::Auto, nullptr, Layout);
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return std::nullopt;
  }
  return std::move(*R);
}

/// Whether the only group of \p Code is reduced in strips.
bool reducedInStrips(llvm::StringRef Code, std::string *Output = nullptr) {
  std::optional<RewriteResult> R = rewriteForStrips(Code);
  if (!R)
    return false;
  if (R->Report.Groups.size() != 1) {
    ADD_FAILURE() << "expected one group, got " << R->Report.Groups.size();
    return false;
  }
  if (Output)
    *Output = R->Output;
  return R->Report.Groups[0].Strip;
}

TEST(StripMining, AUniformKeyLoopReducesTwoLapsTogether) {
  std::string Output;
  // No load in the loop: deferring past a whole iteration reads nothing
  // the adds change.
  EXPECT_TRUE(reducedInStrips(R"cu(
    __global__ void k(float *g, int n) {
      for (int i = 0; i < n; ++i) {
        float v = threadIdx.x * 0.5f * i;
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu",
                              &Output));
  EXPECT_NE(Output.find("distwar_strip"), std::string::npos) << Output;
}

TEST(StripMining, ABarrierInTheLoopRefuses) {
  EXPECT_FALSE(reducedInStrips(R"cu(
    __global__ void k(float *g, const float *in, int n) {
      for (int i = 0; i < n; ++i) {
        float v = threadIdx.x * 0.5f * i;
        __syncthreads();
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu"));
}

TEST(StripMining, ACounterTheBodyWritesRefuses) {
  EXPECT_FALSE(reducedInStrips(R"cu(
    __global__ void k(float *g, const float *in, int n) {
      for (int i = 0; i < n; ++i) {
        float v = threadIdx.x * 0.5f * i;
        atomicAdd(&g[i * 2], v);
        atomicAdd(&g[i * 2 + 1], v);
        if (n > 100)
          i += 2;
      }
    })cu"));
}

TEST(StripMining, APerLaneKeyIsNoStrip) {
  EXPECT_FALSE(reducedInStrips(R"cu(
    __global__ void k(float *g, const float *in, const int *ids, int n) {
      for (int i = 0; i < n; ++i) {
        int key = threadIdx.x + i;
        float v = threadIdx.x * 0.5f * i;
        atomicAdd(&g[key * 2], v);
        atomicAdd(&g[key * 2 + 1], v);
      }
    })cu"));
}

} // namespace
