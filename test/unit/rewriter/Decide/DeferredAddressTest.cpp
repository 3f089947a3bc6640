//===- DeferredAddressTest.cpp - addrOf lambdas for Fields batches --------===//

#include "Decide/DeferredAddress.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

std::vector<DeferredSlot> numberedSlots(const SiteGroup &G) {
  std::vector<DeferredSlot> Slots;
  for (size_t I : G.Sites)
    Slots.push_back({I, std::to_string(Slots.size()), "", ""});
  return Slots;
}

const char *const PairCode = R"cu(
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      if (v > 0.f)
        atomicAdd(&g[i * 2 + 1], v);
    })cu";

TEST(DeferredAddress, OneBranchPerSlotWithTheKeyReplaced) {
  Parsed P = parse(PairCode);
  ASSERT_EQ(P.Groups.size(), 1u);
  std::optional<std::string> Lambda =
      deferredAddressLambda(P.context(), P.Sites, P.Groups[0],
                            numberedSlots(P.Groups[0]), "distwar_k");
  ASSERT_TRUE(Lambda);
  llvm::StringRef L = *Lambda;
  EXPECT_TRUE(L.starts_with("[&](int distwar_slot) -> float * {")) << L.str();
  EXPECT_TRUE(L.ends_with(" return nullptr; }")) << L.str();
  EXPECT_TRUE(L.contains(" if (distwar_slot == 0) return ")) << L.str();
  EXPECT_TRUE(L.contains(" if (distwar_slot == 1) return ")) << L.str();
  // The key is the captured one; the condition is repeated at the call.
  EXPECT_TRUE(L.contains("distwar_k")) << L.str();
  EXPECT_FALSE(L.contains("[i")) << L.str();
  EXPECT_TRUE(L.contains("v > 0.f")) << L.str();
}

TEST(DeferredAddress, TheSiteConditionIsThatOfItsIfs) {
  Parsed P = parse(PairCode);
  ASSERT_EQ(P.Groups.size(), 1u);
  const SiteGroup &G = P.Groups[0];
  EXPECT_EQ(siteCondition(P.context(), P.Sites[G.Sites[0]], G), "");
  EXPECT_EQ(siteCondition(P.context(), P.Sites[G.Sites[1]], G), "(v > 0.f)");
}

TEST(DeferredAddress, BlockLambdasTakeTheKeyAsAParameter) {
  Parsed P = parse(PairCode);
  ASSERT_EQ(P.Groups.size(), 1u);
  std::optional<std::string> Lambda = blockAddressLambda(
      P.context(), P.Sites, P.Groups[0], numberedSlots(P.Groups[0]));
  ASSERT_TRUE(Lambda);
  EXPECT_TRUE(llvm::StringRef(*Lambda).starts_with(
      "[&](int distwar_key, int distwar_slot) -> float * {"))
      << *Lambda;
}

TEST(DeferredAddress, ALocalOtherThanTheKeyCannotBeRebuiltAtTheBlockEnd) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, float v) {
      int i = ids[threadIdx.x];
      constexpr int stride = 2;
      atomicAdd(&g[i * stride], v);
      atomicAdd(&g[i * stride + 1], v);
    })cu");
  ASSERT_EQ(P.Groups.size(), 1u);
  const SiteGroup &G = P.Groups[0];
  // At the call the local is in scope; after the kernel's body it is not.
  std::optional<std::string> AtCall =
      deferredAddressLambda(P.context(), P.Sites, G, numberedSlots(G), "");
  ASSERT_TRUE(AtCall);
  EXPECT_TRUE(llvm::StringRef(*AtCall).contains("return &g[i * stride + 1];"))
      << *AtCall;
  EXPECT_FALSE(blockAddressLambda(P.context(), P.Sites, G, numberedSlots(G)));
}

TEST(DeferredAddress, OneSlotPerSite) {
  Parsed P = parse(PairCode);
  ASSERT_EQ(P.Groups.size(), 1u);
  std::vector<DeferredSlot> Slots = numberedSlots(P.Groups[0]);
  Slots.pop_back();
  EXPECT_FALSE(deferredAddressLambda(P.context(), P.Sites, P.Groups[0], Slots,
                                     "distwar_k"));
}

} // namespace
