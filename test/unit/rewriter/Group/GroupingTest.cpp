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

TEST(Grouping, UniformAddressesOfSeveralBuffersFormOneGroup) {
  // Constant elements of kernel parameters meet in one group; a site of one
  // of them alone gets its own scope and lane-dependent ifs.
  Parsed P = parse(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      for (int j = 0; j < n; ++j) {
        const float v = x[j * 32 + threadIdx.x];
        atomicAdd(&ga[0], v);
        if (v > 0.5f) {
          atomicAdd(&gb[1], v);
        }
        atomicAdd(&ga[1], v);
      }
    })cu");
  ASSERT_EQ(P.Sites.size(), 3u);
  ASSERT_EQ(P.Groups.size(), 1u);
  EXPECT_EQ(P.Groups[0].Sites, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(P.Groups[0].LaneIfs.size(), 1u);
  SiteGroup One = singleSiteGroup(P.context(), P.Sites, 1);
  EXPECT_EQ(One.Sites, (std::vector<size_t>{1}));
  EXPECT_TRUE(One.Scope);
  EXPECT_TRUE(One.LaneIfs.empty()); // its scope is the if's own block
  SiteGroup Last = singleSiteGroup(P.context(), P.Sites, 2);
  EXPECT_EQ(Last.Scope, P.Groups[0].Scope);
}

TEST(Grouping, LoopBodyWithoutBracesIsTheScope) {
  // The scope is the loop, its body the one statement (the rewrite braces
  // it); a channel loop that is the body belongs to its site and is that
  // statement. In a block, the block stays the scope.
  AnnotatedCode Code(R"cu(
    __global__ void k(float *g, const int *ids, const float *x, int n) {
      for (int j = 0; j < n; ++j)
        $plain^atomicAdd(&g[ids[j] ], x[j]);
      for (int j = 0; j < n; ++j)
        $channel^for (int c = 0; c < 3; ++c)
          atomicAdd(&g[ids[j] * 3 + c], x[j]);
      for (int j = 0; j < n; ++j) {
        $inBlock^for (int c = 0; c < 3; ++c)
          atomicAdd(&g[ids[j] * 3 + c], x[j]);
      }
    })cu");
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 5u);
  ASSERT_EQ(P.Groups.size(), 3u);
  for (const SiteGroup &G : P.Groups)
    EXPECT_NE(G.Why, Reason::NotAStatement);
  const char *const Names[] = {"plain", "channel", "inBlock"};
  const clang::Stmt *Scopes[] = {Loops[0], Loops[1], Loops[3]->getBody()};
  for (size_t I = 0; I < 3; ++I) {
    const SiteGroup &G = P.Groups[I];
    EXPECT_EQ(G.Scope, Scopes[I]) << Names[I];
    EXPECT_EQ(G.First, G.Last) << Names[I];
    EXPECT_EQ(offsetOf(Ctx, G.First->getBeginLoc()), Code.point(Names[I]))
        << Names[I];
  }
  for (size_t I = 0; I < 2; ++I) {
    llvm::ArrayRef<clang::Stmt *> Stmts = scopeStatements(P.Groups[I].Scope);
    ASSERT_EQ(Stmts.size(), 1u);
    EXPECT_EQ(Stmts.front(), Loops[I]->getBody());
  }
}

} // namespace
