//===- SharedCursorsTest.cpp - shared arrays read at the loop counter -----===//

#include "Emit/SharedCursors.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(SharedCursors, QualifyingArraysAndUses) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, int n, unsigned u) {
      __shared__ float a[64];
      __shared__ float b[32];
      __shared__ int c[3 * 64];
      for (int j = 0; j < min(64, n); j++) {
        __shared__ float inner[64];
        g[j] = a[j] + c[64 + j] + c[j + 128] + b[j] + c[u + j] + a[2 * j] +
               inner[j];
      }
    })cu");
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 1u);
  const clang::FunctionDecl *Fn = function(Ctx, "k");
  ASSERT_TRUE(Fn);
  std::optional<CursorPlan> Plan = planSharedCursors(Ctx, Fn, Loops[0]);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(Plan->Start, 0);
  // b is too short for j <= 63, c[u + j] may wrap, a[2 * j] is not at j,
  // inner is declared inside the loop.
  ASSERT_EQ(Plan->Cursors.size(), 2u);
  EXPECT_EQ(Plan->Cursors[0].Array->getName(), "a");
  ASSERT_EQ(Plan->Cursors[0].Uses.size(), 1u);
  EXPECT_EQ(Plan->Cursors[0].Uses[0].Sum, nullptr);
  EXPECT_EQ(Plan->Cursors[1].Array->getName(), "c");
  ASSERT_EQ(Plan->Cursors[1].Uses.size(), 2u);
  EXPECT_NE(Plan->Cursors[1].Uses[0].Sum, nullptr);
  EXPECT_NE(Plan->Cursors[1].Uses[1].Sum, nullptr);
}

} // namespace
