//===- BatchTypeTest.cpp - the batch type a group declares ----------------===//

#include "Emit/BatchType.h"
#include "Decide/SlotLayout.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The batch type of the only group of \p Code, its slots laid out as
/// Decide lays them out (whether each is always set included).
std::string batchTypeOf(llvm::StringRef Code, bool Deferred = false) {
  Parsed P = parse(Code);
  if (P.Groups.size() != 1) {
    ADD_FAILURE() << "expected one group, got " << P.Groups.size();
    return "";
  }
  const SiteGroup &G = P.Groups[0];
  SlotLayout Layout = layOutSlots(P.context(), P.Sites, G);
  return batchType(P.context(), P.Sites, G, Layout, Deferred,
                   /*Versioned=*/false);
}

TEST(BatchType, SitesThatAlwaysRunAreMarkedAlwaysSet) {
  const char *Code = R"cu(
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      atomicAdd(&g[i * 2 + 1], v);
    })cu";
  EXPECT_EQ(batchTypeOf(Code),
            "::distwar::Batch<float, 2, ::distwar::AlwaysSet<0, 2>>");
  // Deferred addresses: the batch holds values only.
  EXPECT_EQ(batchTypeOf(Code, /*Deferred=*/true),
            "::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>>");
}

TEST(BatchType, AConditionalSiteIsTracked) {
  EXPECT_EQ(batchTypeOf(R"cu(
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      if (v > 0.f)
        atomicAdd(&g[i * 2 + 1], v);
    })cu"),
            "::distwar::Batch<float, 2, ::distwar::AlwaysSet<0, 1>>");
}

TEST(BatchType, AGotoInTheScopeMarksNothing) {
  EXPECT_EQ(batchTypeOf(R"cu(
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      atomicAdd(&g[i * 2 + 1], v);
      if (v > 1.f)
        goto done;
      g[0] = v;
    done:
      return;
    })cu"),
            "::distwar::Batch<float, 2>");
}

TEST(BatchType, AdjacentFloatsAreMarked) {
  EXPECT_EQ(batchTypeOf(R"cu(
    struct Grad4 { float a, b, c, d; };
    __global__ void k(Grad4 *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i].a, v);
      atomicAdd(&g[i].b, v);
      atomicAdd(&g[i].c, v);
      atomicAdd(&g[i].d, v);
    })cu"),
            "::distwar::Batch<float, 4, ::distwar::AlwaysSet<0, 4>, "
            "::distwar::Adjacent<0, 4>>");
}

} // namespace
