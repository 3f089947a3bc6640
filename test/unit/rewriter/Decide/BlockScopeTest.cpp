//===- BlockScopeTest.cpp - may a group accumulate per thread block? ------===//

#include "Decide/BlockScope.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(BlockScope, AKernelWithoutBarriersMayRunInALambda) {
  Parsed P = parse(R"cu(
    __device__ float scale(float v) { return 2.f * v; }
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      if (i < 0)
        return;
      atomicAdd(&g[i], scale(v));
    })cu");
  EXPECT_EQ(blockScopeReason(function(P.context(), "k")), Reason::None);
}

TEST(BlockScope, OnlyKernelsWithABody) {
  Parsed P = parse(R"cu(
    __device__ void dev(float *g) { g[0] = 1.f; }
    __global__ void declared(float *g);)cu");
  EXPECT_EQ(blockScopeReason(function(P.context(), "dev")),
            Reason::BlockNotKernel);
  EXPECT_EQ(blockScopeReason(function(P.context(), "declared")),
            Reason::BlockNotKernel);
  EXPECT_EQ(blockScopeReason(nullptr), Reason::BlockNotKernel);
}

TEST(BlockScope, ABarrierRefusesAndIsPointedAt) {
  AnnotatedCode Code(R"cu(
    __device__ void waits() { __syncthreads(); }
    __global__ void direct(float *g) { g[0] = 1.f; $direct^__syncthreads(); }
    __global__ void called(float *g) { $called^waits(); g[0] = 1.f; })cu");
  Parsed P = parse(Code.code());
  for (llvm::StringRef Name : {"direct", "called"}) {
    Verdict Why = blockScopeReason(function(P.context(), Name));
    EXPECT_EQ(Why, Reason::BlockBarrier) << Name.str();
    ASSERT_TRUE(Why.Place) << Name.str();
    const clang::SourceManager &SM = P.context().getSourceManager();
    EXPECT_EQ(offsetOf(P.context(),
                       SM.translateLineCol(SM.getMainFileID(), Why.Place->Line,
                                           Why.Place->Column)),
              Code.point(Name))
        << Name.str();
  }
}

TEST(BlockScope, DeclarationsThatWouldChangeMeaningRefuse) {
  Parsed P = parse(R"cu(
    __device__ float helperWithShared(float v) {
      __shared__ float cache[32];
      cache[threadIdx.x] = v;
      return cache[0];
    }
    __global__ void sharedLocal(float *g) {
      __shared__ float tile[32];
      g[0] = tile[0];
    }
    __global__ void localType(float *g) {
      struct Pair { float a, b; };
      Pair p{1.f, 2.f};
      g[0] = p.a;
    }
    __global__ void sharedInCallee(float *g, float v) {
      g[0] = helperWithShared(v);
    })cu");
  EXPECT_EQ(blockScopeReason(function(P.context(), "sharedLocal")),
            Reason::BlockDeclarations);
  EXPECT_EQ(blockScopeReason(function(P.context(), "localType")),
            Reason::BlockDeclarations);
  EXPECT_EQ(blockScopeReason(function(P.context(), "sharedInCallee")),
            Reason::BlockDeclarations);
}

TEST(BlockScope, DeferringToTheKernelsEndNeedsNoReadBack) {
  Parsed P = parse(R"cu(
    __global__ void clean(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      atomicAdd(&g[i * 2 + 1], v);
    }
    __global__ void readsBack(float *g, float *out, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      atomicAdd(&g[i * 2 + 1], v);
      out[i] = g[i * 2];
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  EXPECT_EQ(blockDeferralReason(P.Sites, P.Groups[0]), Reason::None);
  Verdict Why = blockDeferralReason(P.Sites, P.Groups[1]);
  EXPECT_NE(Why, Reason::None);
  // Deferring only past statements that touch nothing of the group is fine.
  EXPECT_EQ(deferralReason(P.Sites, P.Groups[1], {}), Reason::None);
}

TEST(BlockScope, GroupsNeedAnIntegerKeyAndAConstantSize) {
  Parsed P = parse(R"cu(
    __device__ float table[64];
    __device__ void inDevice(int i, float v) {
      atomicAdd(&table[i * 2], v);
      atomicAdd(&table[i * 2 + 1], v);
    }
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      atomicAdd(&g[i * 2 + 1], v);
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  EXPECT_EQ(blockGroupReason(P.Sites, P.Groups[0], "2"),
            Reason::BlockNotKernel);
  EXPECT_EQ(blockGroupReason(P.Sites, P.Groups[1], "2"), Reason::None);
  EXPECT_EQ(blockGroupReason(P.Sites, P.Groups[1], "n"), Reason::BlockAddress);
  EXPECT_EQ(blockGroupReason(P.Sites, P.Groups[1], "0"), Reason::BlockAddress);
}

} // namespace
