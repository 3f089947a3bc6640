//===- GroupingTest.cpp - sites grouped by key, type and iteration --------===//

#include "Group/Grouping.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(Grouping, OneGroupPerKeyTypeAndIteration) {
  Parsed P = parse(R"cu(
    __global__ void k(float *a, int *c, const int *ids, int n, float v) {
      for (int j = 0; j < n; ++j) {
        int g = ids[j];
        int h = ids[j + 1];
        atomicAdd(&a[g], v);
        atomicAdd(&a[(h)], v);
        atomicAdd(&c[g], 1);
        atomicAdd(&a[g + 0 * 0], v);
        atomicAdd(&a[(g)], v);
      }
    })cu");
  ASSERT_EQ(P.Sites.size(), 5u);
  // g (float): sites 0, 3 (an offset after the key) and 4 (parens do not
  // matter); h; g (int).
  ASSERT_EQ(P.Groups.size(), 3u);
  EXPECT_EQ(P.Groups[0].Sites, (std::vector<size_t>{0, 3, 4}));
  EXPECT_EQ(P.Groups[1].Sites, (std::vector<size_t>{1}));
  EXPECT_EQ(P.Groups[2].Sites, (std::vector<size_t>{2}));
  for (const SiteGroup &G : P.Groups)
    EXPECT_EQ(G.Why, Reason::None);
}

} // namespace
