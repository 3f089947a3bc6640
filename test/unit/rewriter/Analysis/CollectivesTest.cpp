//===- CollectivesTest.cpp - barriers and warp-collective calls -----------===//

#include "Analysis/Collectives.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const CollectivesCode = R"cu(
    __device__ void __syncwarp(unsigned mask = 0xffffffffu);
    namespace cooperative_groups {
    struct thread_block {
      __device__ void sync() const;
      __device__ unsigned thread_rank() const;
      __device__ unsigned size() const;
    };
    struct thread_block_tile {
      __device__ void sync() const;
    };
    __device__ thread_block this_thread_block();
    }
    __device__ void syncsInside() { __syncthreads(); }
    __device__ float shufflesInside(float v) {
      return __shfl_xor_sync(0xffffffffu, v, 1);
    }
    __device__ float addsOne(float v) { return v + 1.f; }
    __device__ void bodyUnknown(float *g);

    __global__ void k(float *g, float v,
                      cooperative_groups::thread_block_tile t) {
      __syncthreads();
      __syncwarp();
      syncsInside();
      g[0] = shufflesInside(v);
      g[1] = addsOne(v);
      bodyUnknown(g);
      atomicAdd(&g[2], v);
      cooperative_groups::this_thread_block().sync();
      g[3] = cooperative_groups::this_thread_block().thread_rank();
      t.sync();
      asm volatile("" ::: "memory");
    })cu";

struct CollectiveExpectation {
  bool Collective, BlockBarrier, ReachesBarrier;
};

TEST(Collectives, EachKindOfStatement) {
  Parsed P = parse(CollectivesCode);
  std::vector<const clang::Stmt *> Body = bodyOf(P.context(), "k");
  const CollectiveExpectation Expected[] = {
      {true, true, true},    // __syncthreads()
      {true, false, false},  // __syncwarp(): a warp's, not the block's
      {true, false, true},   // a function that waits at a barrier
      {true, false, false},  // a function that shuffles
      {false, false, false}, // arithmetic only
      {true, false, true},   // a body not seen: may do anything
      {false, false, false}, // an atomic never waits
      {true, true, true},    // block.sync()
      {false, false, false}, // thread_rank() reads the lane
      {true, false, true},   // a tile's sync is no block barrier
      {true, false, true},   // inline asm
  };
  ASSERT_EQ(Body.size(), std::size(Expected));
  for (size_t I = 0; I < Body.size(); ++I) {
    SCOPED_TRACE("statement " + std::to_string(I));
    EXPECT_EQ(mayBeCollective(Body[I]), Expected[I].Collective);
    EXPECT_EQ(isBlockBarrier(Body[I]), Expected[I].BlockBarrier);
    EXPECT_EQ(mayReachBlockBarrier(Body[I]), Expected[I].ReachesBarrier);
  }
}

TEST(Collectives, NullIsNoCollective) {
  EXPECT_FALSE(mayBeCollective(nullptr));
  EXPECT_FALSE(isBlockBarrier(nullptr));
  EXPECT_FALSE(mayReachBlockBarrier(nullptr));
}

TEST(Collectives, CooperativeGroupsNamesAndAccessors) {
  Parsed P = parse(CollectivesCode);
  EXPECT_FALSE(inCooperativeGroups(function(P.context(), "k")));
  const clang::FunctionDecl *Block = nullptr;
  for (const clang::Decl *D : P.context().getTranslationUnitDecl()->decls())
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(D))
      for (const clang::Decl *In : NS->decls())
        if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(In))
          Block = FD;
  ASSERT_TRUE(Block);
  EXPECT_TRUE(inCooperativeGroups(Block));
  EXPECT_TRUE(isGroupAccessor("this_thread_block"));
  EXPECT_TRUE(isGroupAccessor("size"));
  EXPECT_FALSE(isGroupAccessor("sync"));
  EXPECT_FALSE(isGroupAccessor("thread_rank"));
}

TEST(Collectives, DepthLimitCountsAsUnknown) {
  // A chain deeper than the search goes is treated as one that may wait.
  Parsed P = parse(R"cu(
    __device__ void f0(float *g) { g[0] = 1.f; }
    __device__ void f1(float *g) { f0(g); }
    __device__ void f2(float *g) { f1(g); }
    __global__ void k(float *g) { f2(g); })cu");
  const clang::Stmt *Call = bodyOf(P.context(), "k").front();
  EXPECT_FALSE(mayBeCollective(Call));
  EXPECT_TRUE(mayBeCollective(Call, /*Depth=*/8));
  EXPECT_TRUE(mayReachBlockBarrier(Call, /*Depth=*/8));
}

} // namespace
