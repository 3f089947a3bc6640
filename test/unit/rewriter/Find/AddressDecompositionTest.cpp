//===- AddressDecompositionTest.cpp - buffer, key and field of sites ------===//
//
// Which buffer, key and field each atomicAdd's address is made of, and the
// addresses that are refused with their reason.
//
//===----------------------------------------------------------------------===//

#include "Find/AddressDecomposition.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(AddressDecomposition, FieldsStridesAndChannels) {
  Parsed P = parse(R"cu(
    __global__ void k(float *a, float2 *m, float *c, int id, float v) {
      atomicAdd(&a[id * 4 + 2], v);
      atomicAdd(&m[id].y, v);
      atomicAdd(a + 4 * id + 3, v);
      for (int ch = 1; ch < 4; ++ch)
        atomicAdd(&c[id * 4 + ch], v);
    })cu");
  ASSERT_EQ(P.Sites.size(), 4u);
  for (const AtomicSite &S : P.Sites) {
    EXPECT_EQ(S.Why, Reason::None) << S.Line;
    EXPECT_EQ(S.KeyText, "id") << S.Line;
    EXPECT_EQ(S.TypeText, "float");
  }
  EXPECT_EQ(P.Sites[0].FieldText, "[*4+2]");
  EXPECT_EQ(P.Sites[1].FieldText, ".y");
  EXPECT_EQ(P.Sites[1].Buffer->getName(), "m");
  EXPECT_EQ(P.Sites[2].FieldText, "[*4+3]");
  ASSERT_TRUE(P.Sites[3].Channel.has_value());
  EXPECT_EQ(P.Sites[3].Channel->LowerText, "1");
  EXPECT_EQ(P.Sites[3].Channel->UpperText, "4");
  EXPECT_FALSE(P.Sites[3].Channel->LowerIsZero);
}

TEST(AddressDecomposition, RefusesWhatItCannotProve) {
  Parsed P = parse(R"cu(
    __global__ void k(float *a, int n, int id, float v, bool f) {
      float *p = f ? a : a + 1;
      atomicAdd(&p[id], v);
      for (int i = 0; i < n; ++i)
        atomicAdd(&a[id * 2 + i], v);
      float r = atomicAdd(&a[id], v);
      a = a + 1;
    })cu");
  ASSERT_EQ(P.Sites.size(), 3u);
  EXPECT_EQ(P.Sites[0].Why, Reason::BufferNotUniform);
  EXPECT_EQ(P.Sites[1].Why, Reason::ChannelLoopUnsupported);
  EXPECT_EQ(P.Sites[2].Why, Reason::UsedResult);
}

} // namespace
