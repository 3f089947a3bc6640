//===- ReducedCodeTest.cpp - code that already reduces by hand ------------===//

#include "Decide/ReducedCode.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(ReducedCode, AShuffleSumIsAWarpReduction) {
  AnnotatedCode Code(R"cu(
    __device__ float warpSum(float v) {
      for (int o = 16; o > 0; o /= 2)
        v += $shfl^__shfl_down_sync(0xffffffffu, v, o);
      return v;
    }
    __global__ void direct(float *g, float v) {
      for (int o = 16; o > 0; o /= 2)
        v += $direct^__shfl_xor_sync(0xffffffffu, v, o);
      if (threadIdx.x == 0)
        atomicAdd(&g[0], v);
    }
    __global__ void viaHelper(float *g, float v) {
      float s = $call^warpSum(v);
      if (threadIdx.x % 32 == 0)
        atomicAdd(&g[0], s);
    }
    __global__ void passesAlong(float *g, float v) {
      v = __shfl_up_sync(0xffffffffu, v, 1);
      atomicAdd(&g[threadIdx.x], v);
    })cu");
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  const clang::CallExpr *Found = findWarpReduction(function(Ctx, "direct"));
  ASSERT_TRUE(Found);
  EXPECT_EQ(offsetOf(Ctx, Found->getBeginLoc()), Code.point("direct"));
  // Through a call, the call in the function is what is returned.
  Found = findWarpReduction(function(Ctx, "viaHelper"));
  ASSERT_TRUE(Found);
  EXPECT_EQ(offsetOf(Ctx, Found->getBeginLoc()), Code.point("call"));
  // A shuffle that only moves a value reduces nothing.
  EXPECT_FALSE(findWarpReduction(function(Ctx, "passesAlong")));
}

TEST(ReducedCode, SitesOfReducingFunctionsAreLeftAlone) {
  Parsed P = parse(R"cu(
    __global__ void reduces(float *g, float v) {
      for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
      if (threadIdx.x == 0)
        atomicAdd(&g[0], v);
    }
    __global__ void plain(float *g, const int *ids, float v) {
      atomicAdd(&g[ids[threadIdx.x]], v);
    })cu");
  ASSERT_EQ(P.Sites.size(), 2u);
  Reason Before = P.Sites[1].Why;
  markAlreadyReduced(P.Sites);
  EXPECT_EQ(P.Sites[0].Why, Reason::AlreadyReduced);
  EXPECT_EQ(P.Sites[1].Why, Before);
}

TEST(ReducedCode, AOneLaneAddOfWhatTheBlockAccumulated) {
  Parsed P = parse(R"cu(
    __global__ void k(float *out, const float *in) {
      __shared__ float total;
      if (threadIdx.x == 0)
        total = 0.f;
      __syncthreads();
      atomicAdd(&total, in[threadIdx.x]);
      __syncthreads();
      if (threadIdx.x == 0)
        atomicAdd(&out[blockIdx.x], total);
    })cu");
  ASSERT_EQ(P.Sites.size(), 2u);
  markAlreadyReduced(P.Sites);
  EXPECT_EQ(P.Sites[1].Why, Reason::AlreadyReduced);
}

} // namespace
