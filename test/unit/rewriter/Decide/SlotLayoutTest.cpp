//===- SlotLayoutTest.cpp - lays out a group's batch slots ----------------===//

#include "Decide/SlotLayout.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(SlotLayout, PlainSitesTakeOneSlotEachChannelLoopsARun) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, const float *v) {
      const int i = ids[threadIdx.x];
      atomicAdd(&g[i * 8], v[0]);
      for (int c = 1; c < 4; ++c)
        atomicAdd(&g[i * 8 + c], v[c]);
      atomicAdd(&g[i * 8 + 4], v[4]);
    })cu");
  ASSERT_EQ(P.Groups.size(), 1u);
  SlotLayout L = layOutSlots(P.context(), P.Sites, P.Groups[0]);
  ASSERT_EQ(L.SlotTexts.size(), 3u);
  EXPECT_EQ(L.SlotTexts[0], "0");
  EXPECT_EQ(L.SlotTexts[1], "1 + (c - 1)");
  EXPECT_EQ(L.Slots[1].Extent, "(4 - 1)");
  EXPECT_EQ(L.SlotTexts[2], "(4 - 1) + 1");
  EXPECT_EQ(L.Size, "(4 - 1) + 2");
}

TEST(SlotLayout, ASiteUnderAnIfIsTrackedTheOthersAlwaysSet) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, float v) {
      const int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      if (v > 0.5f)
        atomicAdd(&g[i * 2 + 1], v);
    })cu");
  ASSERT_EQ(P.Groups.size(), 1u);
  SlotLayout L = layOutSlots(P.context(), P.Sites, P.Groups[0]);
  EXPECT_EQ(L.Presences,
            (std::vector<Presence>{Presence::Always, Presence::Tracked}));
}

} // namespace
