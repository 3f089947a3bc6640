//===- BlockIndexUsesTest.cpp - reads of the block's place in the grid ----===//

#include "Analysis/BlockIndexUses.h"
#include "../TileTestCode.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(BlockIndexUses, BlockIdxGridDimAndGroupIndexEachOnce) {
  AnnotatedCode Code(withGroups(R"cu(
    __global__ void k(float *v) {
      auto b = cg::this_thread_block();
      v[$bi^blockIdx.x + $gd^gridDim.x * $gi^b.group_index().y] = 0;
      v[threadIdx.x + blockDim.x] = 1;
    })cu"));
  Parsed P = parse(Code.code());
  std::vector<BlockIndexUse> Uses =
      findBlockIndexUses(function(P.context(), "k")->getBody());
  // blockIdx and gridDim may be met twice (a property's syntactic and
  // semantic forms): what counts is where they are.
  std::vector<std::pair<BlockIndexUse::Kind, unsigned>> Found;
  for (const BlockIndexUse &U : Uses) {
    std::pair<BlockIndexUse::Kind, unsigned> F(
        U.What, offsetOf(P.context(), U.E->getBeginLoc()));
    if (std::find(Found.begin(), Found.end(), F) == Found.end())
      Found.push_back(F);
  }
  std::vector<std::pair<BlockIndexUse::Kind, unsigned>> Want = {
      {BlockIndexUse::BlockIdx, unsigned(Code.point("bi"))},
      {BlockIndexUse::GridDim, unsigned(Code.point("gd"))},
      {BlockIndexUse::GroupIndex, unsigned(Code.point("gi"))}};
  EXPECT_EQ(Found, Want);
}

TEST(BlockIndexUses, UsesInALambdaNameIt) {
  Parsed P = parse(R"cu(
    __global__ void k(float *v) {
      auto at = [&](int i) { return blockIdx.x + i; };
      v[at(0)] = 0;
    })cu");
  std::vector<BlockIndexUse> Uses =
      findBlockIndexUses(function(P.context(), "k")->getBody());
  ASSERT_FALSE(Uses.empty());
  for (const BlockIndexUse &U : Uses)
    EXPECT_NE(U.InLambda, nullptr);
}

TEST(BlockIndexUses, ThreadIndexAndBlockShapeAreNotUses) {
  Parsed P = parse(R"cu(
    __global__ void k(float *v) { v[threadIdx.x * blockDim.y] = 0; })cu");
  EXPECT_TRUE(
      findBlockIndexUses(function(P.context(), "k")->getBody()).empty());
}

} // namespace
