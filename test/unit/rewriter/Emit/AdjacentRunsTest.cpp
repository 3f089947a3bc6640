//===- AdjacentRunsTest.cpp - slots at adjacent floats of one element -----===//

#include "Emit/AdjacentRuns.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// One one-field slot per site of \p G, numbered in order.
std::vector<DeferredSlot> slotsInOrder(const SiteGroup &G) {
  std::vector<DeferredSlot> Slots;
  for (size_t I : G.Sites)
    Slots.push_back({I, std::to_string(Slots.size()), "", ""});
  return Slots;
}

/// The runs of the only group of \p Code, as (begin, end, phase) triples.
std::vector<std::array<size_t, 3>> runsOf(llvm::StringRef Code) {
  Parsed P = parse(Code);
  if (P.Groups.size() != 1) {
    ADD_FAILURE() << "expected one group, got " << P.Groups.size();
    return {};
  }
  std::vector<std::array<size_t, 3>> Out;
  for (const AdjacentRun &R : adjacentRuns(P.context(), P.Sites, P.Groups[0],
                                           slotsInOrder(P.Groups[0])))
    Out.push_back({R.Begin, R.End, R.Phase});
  return Out;
}

using Runs = std::vector<std::array<size_t, 3>>;

TEST(AdjacentRuns, FourFloatsOfASixteenByteElementAreOneVector) {
  EXPECT_EQ(runsOf(R"cu(
    struct Grad4 { float a, b, c, d; };
    __global__ void k(Grad4 *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i].a, v);
      atomicAdd(&g[i].b, v);
      atomicAdd(&g[i].c, v);
      atomicAdd(&g[i].d, v);
    })cu"),
            (Runs{{0, 4, 0}}));
}

TEST(AdjacentRuns, ARunPastTheBoundaryKeepsItsPhase) {
  EXPECT_EQ(runsOf(R"cu(
    struct Grad8 { float f0, f1, f2, f3, f4, f5, f6, f7; };
    __global__ void k(Grad8 *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i].f1, v);
      atomicAdd(&g[i].f2, v);
      atomicAdd(&g[i].f3, v);
      atomicAdd(&g[i].f4, v);
      atomicAdd(&g[i].f5, v);
      atomicAdd(&g[i].f6, v);
      atomicAdd(&g[i].f7, v);
    })cu"),
            (Runs{{0, 7, 1}}));
}

TEST(AdjacentRuns, NoWholeBlockNoRun) {
  // Floats 1 to 4 straddle two 16-byte blocks without filling either.
  EXPECT_EQ(runsOf(R"cu(
    struct Grad8 { float f0, f1, f2, f3, f4, f5, f6, f7; };
    __global__ void k(Grad8 *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i].f1, v);
      atomicAdd(&g[i].f2, v);
      atomicAdd(&g[i].f3, v);
      atomicAdd(&g[i].f4, v);
    })cu"),
            Runs{});
}

TEST(AdjacentRuns, ElementSizeAndTypeMustAllowVectors) {
  // Twelve bytes: the element's alignment says nothing of the run's.
  EXPECT_EQ(runsOf(R"cu(
    __global__ void k(float3 *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i].x, v);
      atomicAdd(&g[i].y, v);
      atomicAdd(&g[i].z, v);
    })cu"),
            Runs{});
  EXPECT_EQ(runsOf(R"cu(
    struct Dbl4 { double a, b, c, d; };
    __global__ void k(Dbl4 *g, const int *ids, double v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i].a, v);
      atomicAdd(&g[i].b, v);
      atomicAdd(&g[i].c, v);
      atomicAdd(&g[i].d, v);
    })cu"),
            Runs{});
}

TEST(AdjacentRuns, NotAdjacentInMemoryNotARun) {
  EXPECT_EQ(runsOf(R"cu(
    struct Grad4 { float a, b, c, d; };
    __global__ void k(Grad4 *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i].a, v);
      atomicAdd(&g[i].c, v);
      atomicAdd(&g[i].b, v);
      atomicAdd(&g[i].d, v);
    })cu"),
            Runs{});
}

} // namespace
