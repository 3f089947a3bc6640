//===- UniformityTest.cpp - which keys are the same across a warp ---------===//

#include "Analysis/Uniformity.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The key of the first site, classified in its function.
KeyUniformity classifyFirstKey(Parsed &P) {
  EXPECT_FALSE(P.Sites.empty());
  if (P.Sites.empty())
    return KeyUniformity::Varying;
  UniformityAnalysis U(P.context(), P.Sites[0].Function);
  return U.classifyKey(P.Sites[0].Key);
}

TEST(Uniformity, SharedReadBetweenBarriersAtUniformIndex) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, int n) {
      __shared__ int s[256];
      for (int r = 0; r < n; ++r) {
        __syncthreads();
        s[threadIdx.x] = ids[r * 256 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j)
          atomicAdd(&g[s[j]], 1.f);
      }
    })cu");
  EXPECT_EQ(classifyFirstKey(P), KeyUniformity::Uniform);
}

TEST(Uniformity, SharedReadWithoutSecondBarrierIsOnlyLikely) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, int n) {
      __shared__ int s[256];
      for (int r = 0; r < n; ++r) {
        __syncthreads();
        s[threadIdx.x] = ids[r * 256 + threadIdx.x];
        for (int j = 0; j < 256; ++j)
          atomicAdd(&g[s[j]], 1.f);
      }
    })cu");
  EXPECT_EQ(classifyFirstKey(P), KeyUniformity::LikelyUniform);
}

TEST(Uniformity, ThreadIndexAndPerLaneLoads) {
  Parsed Distinct = parse(R"cu(
    __global__ void k(float *g) {
      const int idx = blockIdx.x * blockDim.x + threadIdx.x;
      atomicAdd(&g[idx], 1.f);
    })cu");
  EXPECT_EQ(classifyFirstKey(Distinct), KeyUniformity::Distinct);
  Parsed Varying = parse(R"cu(
    __global__ void k(float *g, const int *__restrict__ ids) {
      const int id = ids[threadIdx.x];
      atomicAdd(&g[id], 1.f);
    })cu");
  EXPECT_EQ(classifyFirstKey(Varying), KeyUniformity::Varying);
  // A counter written under a lane-dependent condition is not uniform.
  Parsed Counter = parse(R"cu(
    __global__ void k(float *g, int n) {
      int c = 0;
      for (int i = 0; i < n; ++i)
        if (threadIdx.x > i)
          c++;
      atomicAdd(&g[c], 1.f);
    })cu");
  EXPECT_EQ(classifyFirstKey(Counter), KeyUniformity::Varying);
}

/// The initialiser of local \p Name, judged grid-uniform in \p Function.
bool gridUniformInit(Parsed &P, llvm::StringRef Function, llvm::StringRef Name) {
  UniformityAnalysis U(P.context(), function(P.context(), Function));
  const clang::VarDecl *V = variable(P.context(), Name);
  return V && V->getInit() && U.isGridUniform(V->getInit());
}

TEST(Uniformity, LocalsOfGridUniformValuesAreGridUniform) {
  Parsed P = parse(R"cu(
    template <int CNum>
    __global__ void k(float *g, int C, int n) {
      const int c_num = min(CNum, C);
      const int both = max(c_num, n) * 2;
      int changed = C;
      if (threadIdx.x)
        changed = 1;
      const int lane = threadIdx.x;
      const int perLane = min(lane, C);
      int viaChanged = changed + 1;
      int aliased = C;
      int *p = &aliased;
      *p = threadIdx.x;
      int viaAliased = aliased;
      g[0] = both + perLane + viaChanged + viaAliased;
    }
    template __global__ void k<4>(float *, int, int);)cu");
  EXPECT_TRUE(gridUniformInit(P, "k", "c_num"));
  EXPECT_TRUE(gridUniformInit(P, "k", "both"));
  EXPECT_FALSE(gridUniformInit(P, "k", "perLane"));
  EXPECT_FALSE(gridUniformInit(P, "k", "viaChanged"));
  EXPECT_FALSE(gridUniformInit(P, "k", "viaAliased"));
}

TEST(Uniformity, BuiltinsNamedWholeAreJudgedByWhatTheyHold) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g) {
      dim3 t = threadIdx;
      dim3 b = blockIdx;
      unsigned tx = t.x, bx = b.x, dx = gridDim.x;
      g[0] = tx + bx + dx;
    })cu");
  EXPECT_FALSE(gridUniformInit(P, "k", "tx"));
  EXPECT_FALSE(gridUniformInit(P, "k", "bx"));
  EXPECT_TRUE(gridUniformInit(P, "k", "dx"));
}

/// The initialiser of local \p Name, judged warp-uniform in \p Function.
bool uniformInit(Parsed &P, llvm::StringRef Function, llvm::StringRef Name) {
  UniformityAnalysis U(P.context(), function(P.context(), Function));
  const clang::VarDecl *V = variable(P.context(), Name);
  return V && V->getInit() && U.isUniform(V->getInit());
}

TEST(Uniformity, LoadsOfReadOnlyParametersAtUniformIndices) {
  Parsed P = parse(R"cu(
    __global__ void k(const uint2 *__restrict__ spans, const uint2 *plain,
                      float *g) {
      const uint2 *tile = spans + blockIdx.x;
      const uint2 &ref = spans[blockIdx.y * gridDim.x + blockIdx.x];
      uint2 assigned;
      assigned = spans[blockIdx.x];
      int left = tile->y - tile->x;
      for (int b = 0; left > 0; b++, left -= 128)
        g[b] += 1.f;
      const unsigned fromRef = ref.y;
      const unsigned fromAssigned = assigned.y;
      const unsigned perLane = spans[threadIdx.x].y;
      const unsigned mayAlias = plain[blockIdx.x].y;
      g[0] = fromRef + fromAssigned + perLane + mayAlias;
    })cu");
  EXPECT_TRUE(uniformInit(P, "k", "fromRef"));
  EXPECT_TRUE(uniformInit(P, "k", "fromAssigned"));
  EXPECT_FALSE(uniformInit(P, "k", "perLane"));
  EXPECT_FALSE(uniformInit(P, "k", "mayAlias"));
  // `left` shrinks by a constant in a loop that every lane runs alike.
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 1u);
  UniformityAnalysis U(P.context(), function(P.context(), "k"));
  EXPECT_TRUE(U.isUniform(Loops[0]->getCond()));
}

TEST(Uniformity, AParameterTheKernelWritesIsNotReadOnly) {
  Parsed P = parse(R"cu(
    __global__ void k(const uint2 *__restrict__ spans, float *g) {
      if (threadIdx.x == 3)
        const_cast<uint2 *>(spans)[blockIdx.x].y = 0;
      const unsigned afterStore = spans[blockIdx.x].y;
      g[0] = afterStore;
    })cu");
  EXPECT_FALSE(uniformInit(P, "k", "afterStore"));
}

TEST(Uniformity, ASharedArraysAddressIsUniform) {
  Parsed P = parse(R"cu(
    __global__ void k(const float *x, int n) {
      __shared__ float acc[2];
      for (int j = 0; j < n; j++)
        atomicAdd(&acc[1], x[j]);
    })cu");
  ASSERT_EQ(P.Sites.size(), 1u);
  EXPECT_TRUE(P.Sites[0].AddressIsUniform);
  EXPECT_EQ(classifyFirstKey(P), KeyUniformity::Uniform);
}

} // namespace
