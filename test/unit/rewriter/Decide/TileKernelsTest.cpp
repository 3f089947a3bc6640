//===- TileKernelsTest.cpp - which kernels --balance=tiles rewrites -------===//

#include "Decide/TileKernels.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The plan of kernel \p Name in \p Code.
TileKernelPlan planOf(Parsed &P, llvm::StringRef Name) {
  TilePlan Plan = planTiles(P.context());
  for (const TileKernelPlan &K : Plan.Kernels)
    if (K.Kernel->getName() == Name)
      return K;
  ADD_FAILURE() << "no plan for " << Name.str();
  return {};
}

TEST(TileKernels, ALaunchedTileKernelIsBalancedWithItsUsesAndLaunches) {
  AnnotatedCode Code(R"cu(
    template <int C>
    __global__ void k(float *v, int n) {
      if (blockIdx.x * blockDim.x + threadIdx.x >= n)
        return;
      v[blockIdx.x * C + gridDim.x] = 0;
    }
    void run(float *v, int n) {
      $launch^k<3><<<n, 32>>>(v, n);
      if (n)
        $second^k<4><<<dim3(n, 2), 32, 0, 0>>>(v, n);
    })cu");
  Parsed P = parse(Code.code());
  TileKernelPlan K = planOf(P, "k");
  EXPECT_EQ(K.Why.Code, Reason::None);
  EXPECT_TRUE(K.balanced());
  ASSERT_EQ(K.Launches.size(), 2u);
  EXPECT_EQ(offsetOf(P.context(), K.Launches[0]->getBeginLoc()),
            Code.point("launch"));
  EXPECT_EQ(offsetOf(P.context(), K.Launches[1]->getBeginLoc()),
            Code.point("second"));
  EXPECT_EQ(K.Returns.size(), 1u);
  EXPECT_GE(K.Uses.size(), 3u);
}

TEST(TileKernels, EveryNameOfTheKernelMustBeALaunch) {
  Parsed P = parse(R"cu(
    __global__ void prototyped(float *v);
    __global__ void prototyped(float *v) { v[blockIdx.x] = 0; }
    __global__ void unlaunched(float *v) { v[blockIdx.x] = 0; }
    __global__ void addressTaken(float *v) { v[blockIdx.x] = 0; }
    __global__ void inExpression(float *v) { v[blockIdx.x] = 0; }
    __device__ void take(void (*)(float *));
    void run(float *v) {
      prototyped<<<4, 32>>>(v);
      addressTaken<<<4, 32>>>(v);
      void (*f)(float *) = addressTaken;
      (void)f;
      int r = (inExpression<<<4, 32>>>(v), 0);
      (void)r;
    })cu");
  EXPECT_EQ(planOf(P, "prototyped").Why.Code, Reason::TileLaunch);
  EXPECT_EQ(planOf(P, "unlaunched").Why.Code, Reason::TileLaunch);
  EXPECT_EQ(planOf(P, "addressTaken").Why.Code, Reason::TileLaunch);
  EXPECT_EQ(planOf(P, "inExpression").Why.Code, Reason::TileLaunch);
}

TEST(TileKernels, NothingToBalanceAlreadyBalancedAndOurNames) {
  Parsed P = parse(R"cu(
    namespace distwar { struct TileQueue; }
    __global__ void same(float *v) { v[threadIdx.x] = 0; }
    __global__ void done(distwar::TileQueue *q, float *v) { v[blockIdx.x] = 0; }
    __global__ void clash(float *v) {
      int distwar_grid = blockIdx.x;
      v[distwar_grid] = 0;
    }
    void run(float *v) {
      same<<<4, 32>>>(v);
      done<<<4, 32>>>(nullptr, v);
      clash<<<4, 32>>>(v);
    })cu");
  EXPECT_EQ(planOf(P, "same").Why.Code, Reason::TileNoBlockIndex);
  EXPECT_EQ(planOf(P, "done").Why.Code, Reason::TileAlreadyBalanced);
  EXPECT_EQ(planOf(P, "clash").Why.Code, Reason::NameShadowed);
}

} // namespace
