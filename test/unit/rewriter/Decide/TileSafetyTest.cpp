//===- TileSafetyTest.cpp - may a kernel's blocks become dynamic tiles ----===//

#include "Decide/TileSafety.h"
#include "../TileTestCode.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// tileSafety of kernel k in \p Code (with the test's cooperative groups).
Verdict safetyOf(const std::string &Code) {
  Parsed P = parse(withGroups(Code));
  return tileSafety(P.context(), function(P.context(), "k"));
}

TEST(TileSafety, ATileKernelIsSafe) {
  Verdict V = safetyOf(R"cu(
    __global__ void k(const int *ranges, float *out) {
      auto b = cg::this_thread_block();
      __shared__ float s[256];
      int r = ranges[b.group_index().y * gridDim.x + b.group_index().x];
      s[b.thread_rank()] = r;
      b.sync();
      out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
    })cu");
  EXPECT_EQ(V.Code, Reason::None);
}

TEST(TileSafety, AGridGroupIsRefused) {
  EXPECT_EQ(safetyOf(R"cu(
    __global__ void k(float *v) {
      v[blockIdx.x] = 1;
      cg::this_grid().sync();
    })cu")
                .Code,
            Reason::TileGridGroup);
}

TEST(TileSafety, OrderingBlocksIsRefused) {
  // A ticket on a global counter.
  EXPECT_EQ(safetyOf(R"cu(
    __global__ void k(unsigned *count, float *v) {
      if (atomicAdd(count, 1u) == gridDim.x - 1)
        v[0] = blockIdx.x;
    })cu")
                .Code,
            Reason::TileBlockOrder);
  // A fence for the whole device.
  EXPECT_EQ(safetyOf(R"cu(
    __global__ void k(float *v) {
      v[blockIdx.x] = 1;
      __threadfence();
    })cu")
                .Code,
            Reason::TileBlockOrder);
  // A volatile flag in global memory, read through a helper.
  Verdict V = safetyOf(R"cu(
    __device__ int wait(volatile int *flag) { return *flag; }
    __global__ void k(volatile int *flag, float *v) {
      v[blockIdx.x] = wait(flag);
    })cu");
  EXPECT_EQ(V.Code, Reason::TileBlockOrder);
  ASSERT_TRUE(V.Place);
  EXPECT_EQ(V.Place->Text, "this call reaches code that may order blocks");
}

TEST(TileSafety, ASharedCounterOrdersNothing) {
  EXPECT_EQ(safetyOf(R"cu(
    __global__ void k(int *out) {
      __shared__ int slot;
      int mine = atomicAdd(&slot, 1);
      out[blockIdx.x * 32 + mine] = 0;
    })cu")
                .Code,
            Reason::None);
}

TEST(TileSafety, ABlockIndexOutOfReachIsRefused) {
  EXPECT_EQ(safetyOf(R"cu(
    __device__ int tileOf() { return blockIdx.x; }
    __global__ void k(float *v) { v[tileOf()] = 0; })cu")
                .Code,
            Reason::TileHiddenBlockIndex);
  EXPECT_EQ(safetyOf(R"cu(
    __device__ int elsewhere(int);
    __global__ void k(float *v) { v[blockIdx.x] = elsewhere(1); })cu")
                .Code,
            Reason::TileHiddenBlockIndex);
  EXPECT_EQ(safetyOf(R"cu(
    #define TILE (blockIdx.x)
    __global__ void k(float *v) { v[TILE] = 0; })cu")
                .Code,
            Reason::TileHiddenBlockIndex);
  EXPECT_EQ(safetyOf(R"cu(
    __global__ void k(float *v) {
      auto at = []() { return blockIdx.x; };
      v[at()] = 0;
    })cu")
                .Code,
            Reason::TileHiddenBlockIndex);
}

TEST(TileSafety, AMacroArgumentAndACapturingLambdaAreInReach) {
  EXPECT_EQ(safetyOf(R"cu(
    #define TWICE(x) ((x) * 2)
    __global__ void k(float *v) {
      auto at = [&]() { return blockIdx.x; };
      v[TWICE(blockIdx.x) + at()] = 0;
    })cu")
                .Code,
            Reason::None);
}

TEST(TileSafety, AReturnBeforeABarrierIsRefused) {
  EXPECT_EQ(safetyOf(R"cu(
    __global__ void k(float *v, int n) {
      if (threadIdx.x >= n)
        return;
      __syncthreads();
      v[blockIdx.x] = 0;
    })cu")
                .Code,
            Reason::TileReturnBeforeBarrier);
}

} // namespace
