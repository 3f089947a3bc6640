//===- AtomicSitesTest.cpp - atomicAdd calls in device code ---------------===//

#include "Find/AtomicSites.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(AtomicSites, FindsDeviceAddsInSourceOrderWithTheirPlaces) {
  AnnotatedCode Code(R"cu(
    __device__ void helper(float *g, int i, float v) { $h^atomicAdd(&g[i], v); }
    __global__ void k(float *g, int *counts, int i, float v) {
      $a^atomicAdd(&g[i * 3 + 1], v);
      $b^atomicAdd(&counts[i], 1);
    })cu");
  Parsed P = parse(Code.code());
  ASSERT_EQ(P.Sites.size(), 3u);
  const size_t Points[] = {Code.point("h"), Code.point("a"), Code.point("b")};
  for (size_t I = 0; I < 3; ++I) {
    const AtomicSite &S = P.Sites[I];
    EXPECT_EQ(offsetOf(P.context(), S.Call->getBeginLoc()), Points[I]);
    EXPECT_TRUE(S.IsDeviceAdd);
    EXPECT_EQ(S.Callee, "atomicAdd");
    EXPECT_TRUE(S.File.empty());
    EXPECT_TRUE(isDeviceAtomicAdd(S.Call, P.context().getSourceManager()));
  }
  // A device function's parameter may point elsewhere at each call.
  EXPECT_EQ(P.Sites[0].Why, Reason::BufferNotUniform);
  EXPECT_EQ(P.Sites[1].Why, Reason::None);
  EXPECT_EQ(P.Sites[2].Why, Reason::None);
  EXPECT_EQ(P.Sites[0].FunctionName, "helper");
  EXPECT_EQ(P.Sites[1].FunctionName, "k");
  EXPECT_EQ(P.Sites[1].TypeText, "float");
  EXPECT_EQ(P.Sites[2].TypeText, "int");
  EXPECT_EQ(P.Sites[1].Line, 4u);
  EXPECT_EQ(P.Sites[1].Column, 7u);
  // The enclosing statements, innermost first, end at the body.
  ASSERT_FALSE(P.Sites[1].Ancestors.empty());
  EXPECT_EQ(P.Sites[1].Ancestors.back(), function(P.context(), "k")->getBody());
}

TEST(AtomicSites, EachSiteThatCannotJoinAGroupSaysWhy) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, float *out, short *s, int i, float v) {
      out[0] = atomicAdd(&g[i], v);
      atomicAdd_block(&g[i], v);
      atomicSub((int *)&g[i], 1);
      [&] { atomicAdd(&g[i], v); }();
      for (int j = 0; j < 2; atomicAdd(&g[j], v), ++j) {}
    })cu");
  ASSERT_EQ(P.Sites.size(), 5u);
  EXPECT_EQ(P.Sites[0].Why, Reason::UsedResult);
  EXPECT_EQ(P.Sites[1].Why, Reason::UnsupportedAtomic);
  EXPECT_FALSE(P.Sites[1].IsDeviceAdd);
  EXPECT_EQ(P.Sites[1].Callee, "atomicAdd_block");
  EXPECT_EQ(P.Sites[2].Why, Reason::UnsupportedAtomic);
  EXPECT_EQ(P.Sites[3].Why, Reason::InLambda);
  EXPECT_EQ(P.Sites[4].Why, Reason::NotAStatement);
}

TEST(AtomicSites, AUsersFunctionNamedAtomicAddIsNotCudas) {
  Parsed P = parse(R"cu(
    namespace mine {
    __device__ void atomicAdd(float *p, float v) { *p += v; }
    }
    __global__ void k(float *g, float v) { mine::atomicAdd(&g[0], v); })cu");
  // An ordinary call: not even reported.
  EXPECT_TRUE(P.Sites.empty());
}

TEST(AtomicSites, ConstantTripCountOfChannelLoops) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *v, int i) {
      for (int c = 1; c < 4; ++c)
        atomicAdd(&g[i * 4 + c], v[c]);
    })cu");
  ASSERT_EQ(P.Sites.size(), 1u);
  ASSERT_TRUE(P.Sites[0].Channel);
  EXPECT_EQ(constantTripCount(*P.Sites[0].Channel, P.context()), 3);
  EXPECT_EQ(P.Sites[0].Channel->LowerText, "1");
  EXPECT_EQ(P.Sites[0].Channel->UpperText, "4");
  EXPECT_FALSE(P.Sites[0].Channel->LowerIsZero);
}

TEST(AtomicSites, TemplatesAreFoundOnceInTheirPattern) {
  Parsed P = parse(R"cu(
    template <typename T> __device__ void add(T *g, int i, T v) {
      atomicAdd(&g[i], v);
    }
    __global__ void k(float *g, double *d, int i, float v) {
      add(g, i, v);
      add(d, i, (double)v);
    })cu");
  ASSERT_EQ(P.Sites.size(), 1u);
  EXPECT_EQ(P.Sites[0].TypeText, "T");
}

TEST(AtomicSites, ATemplateThatMayCallAUsersOverloadIsReported) {
  // backward<Half> calls the program's atomicAdd, backward<float> CUDA's:
  // both sites of the one pattern are reported, neither is a device add.
  Parsed P = parse(R"cu(
    struct Half { unsigned short bits; };
    __device__ void atomicAdd(Half *p, Half v) {}
    template <typename T> __global__ void backward(T *g, int i, T v) {
      atomicAdd(&g[2 * i], v);
      atomicAdd(&g[2 * i + 1], v);
    }
    template __global__ void backward<float>(float *, int, float);
    template __global__ void backward<Half>(Half *, int, Half);)cu");
  ASSERT_EQ(P.Sites.size(), 2u);
  for (const AtomicSite &S : P.Sites) {
    EXPECT_EQ(S.Why, Reason::UserOverload);
    EXPECT_FALSE(S.IsDeviceAdd);
  }
}

TEST(AtomicSites, OnlyTheSizeOfASharedArrayDependsOnTheTemplate) {
  Parsed P = parse(R"cu(
    template <int N> __global__ void k(const float *x, int n) {
      __shared__ float acc[N];
      for (int j = threadIdx.x; j < n; j += blockDim.x)
        atomicAdd(&acc[0], x[j]);
    })cu");
  ASSERT_EQ(P.Sites.size(), 1u);
  EXPECT_EQ(P.Sites[0].TypeText, "float");
  EXPECT_NE(P.Sites[0].Why, Reason::DependentElementType);
  EXPECT_NE(P.Sites[0].Why, Reason::BufferNotUniform);
}

} // namespace
