//===- SharedMatchTest.cpp - serial groups that share one key match -------===//
//
// Which serial groups may reuse an earlier group's key match: one block, one
// after another, one key variable that nothing assigns in between and that
// nothing changes where no statement names it.
//
//===----------------------------------------------------------------------===//

#include "Decide/SharedMatch.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The chains of \p P's groups, every group serial.
std::vector<unsigned> chainsOf(const Parsed &P) {
  return sharedMatchChains(P.Sites, P.Groups, /*Decisions=*/nullptr);
}

TEST(SharedMatch, FloatFieldsAndCounterOfOneKeyChain) {
  Parsed P = parse(R"cu(
    __global__ void k(const int *ids, float *g, int *hits, int n, float w) {
      for (int j = 0; j < n; ++j) {
        const int id = ids[j * 32 + threadIdx.x % 32];
        atomicAdd(&g[2 * id], w);
        atomicAdd(&g[2 * id + 1], w);
        atomicAdd(&hits[id], 1);
      }
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  std::vector<unsigned> Chains = chainsOf(P);
  EXPECT_NE(Chains[0], 0u);
  EXPECT_EQ(Chains[0], Chains[1]);
}

TEST(SharedMatch, AGroupOfAnotherKeyBetweenLeavesTheChain) {
  // The chain skips the group keyed by `b`; the two of `a` share.
  Parsed P = parse(R"cu(
    __global__ void k(const int2 *e, float *g, int *hits, int n, float w) {
      for (int j = 0; j < n; ++j) {
        int a, b;
        a = e[j].x;
        b = e[j].y;
        atomicAdd(&g[a], w);
        atomicAdd(&g[b], -w);
        atomicAdd(&hits[a], 1);
        a = b;
      }
    })cu");
  ASSERT_EQ(P.Groups.size(), 3u);
  std::vector<unsigned> Chains = chainsOf(P);
  EXPECT_NE(Chains[0], 0u);
  EXPECT_EQ(Chains[1], 0u);
  EXPECT_EQ(Chains[2], Chains[0]);
}

TEST(SharedMatch, AKeyAssignedBetweenTheGroupsBreaksTheChain) {
  Parsed P = parse(R"cu(
    __global__ void k(const int *ids, float *g, int *hits, int n, float w) {
      for (int j = 0; j < n; ++j) {
        int id = ids[j];
        atomicAdd(&g[id], w);
        id += 1;
        atomicAdd(&hits[id], 1);
      }
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  EXPECT_EQ(chainsOf(P), (std::vector<unsigned>{0, 0}));
}

TEST(SharedMatch, AKeyWhoseAddressIsTakenNeverChains) {
  // A store through `p` changes the key where no statement names it.
  Parsed P = parse(R"cu(
    __global__ void k(const int *ids, float *g, int *hits, int n, float w) {
      int id = ids[threadIdx.x];
      int *p = &id;
      for (int j = 0; j < n; ++j) {
        atomicAdd(&g[id], w);
        atomicAdd(&hits[id], 1);
        *p = ids[j];
      }
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  EXPECT_EQ(chainsOf(P), (std::vector<unsigned>{0, 0}));
}

TEST(SharedMatch, TheEnclosingLoopsCounterAsKeyChains) {
  // The increment is outside the block: each pass declares a new KeptPeers.
  Parsed P = parse(R"cu(
    __global__ void k(const int *first, float *g, int *hits, int n, float w) {
      for (int i = first[threadIdx.x]; i < n; ++i) {
        atomicAdd(&g[i], w);
        atomicAdd(&hits[i], 1);
      }
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  std::vector<unsigned> Chains = chainsOf(P);
  EXPECT_NE(Chains[0], 0u);
  EXPECT_EQ(Chains[0], Chains[1]);
}

} // namespace
