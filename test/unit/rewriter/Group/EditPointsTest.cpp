//===- EditPointsTest.cpp - where batching may insert text ----------------===//
//
// Batching inserts text at these points: one off by a character splits a
// token or drops a ';', and one inside an #if block is compiled only in
// some configurations.
//
//===----------------------------------------------------------------------===//

#include "Group/EditPoints.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

// An expression statement, a declaration, a block and an expression
// statement, with an #if block (its statement not compiled) between the
// second and the third.
const char *const EditPointsCode = R"cu(
    __global__ void k(float *a, int n) {
      $begin1^a[0] = 1.f$semi^;$after1^
      $begin2^int m = n;$after2^
$block[[#if DISTWAR_TEST_NEVER_DEFINED
      a[1] = $inside1^2.f;$inside2^
#endif
]]      $begin3^{ a[2] = 3.f; }$after3^
      $begin4^a[m] = 4.f;$after4^
    })cu";

TEST(EditPoints, StatementBeginAndAfter) {
  AnnotatedCode Code(EditPointsCode);
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  EditPoints Points(Ctx, P.Sites);
  std::vector<const clang::Stmt *> Body = bodyOf(Ctx, "k");
  ASSERT_EQ(Body.size(), 4u);
  for (size_t I = 0; I < Body.size(); ++I) {
    std::string N = std::to_string(I + 1);
    EXPECT_EQ(offsetOf(Ctx, Points.statementBegin(Body[I])),
              Code.point("begin" + N))
        << I;
    EXPECT_EQ(offsetOf(Ctx, Points.afterStatement(Body[I])),
              Code.point("after" + N))
        << I;
  }
  // The ';' belongs to the expression statement.
  EXPECT_EQ(Code.point("after1"), Code.point("semi") + 1);
}

TEST(EditPoints, ScopeBeginAndEnd) {
  // Just inside a block's braces; around a loop body without them (the
  // braces the rewrite adds go outside these points).
  AnnotatedCode Code(R"cu(
    __global__ void k(float *a, int n) {
      for (int i = 0; i < n; ++i) {$block1^
        a[i] = 1.f;
      $block2^}
      for (int i = 0; i < n; ++i)
        $body1^a[i] = 2.f;$body2^
    })cu");
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  EditPoints Points(Ctx, P.Sites);
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 2u);
  EXPECT_EQ(offsetOf(Ctx, Points.scopeBegin(Loops[0]->getBody())),
            Code.point("block1"));
  EXPECT_EQ(offsetOf(Ctx, Points.scopeEnd(Loops[0]->getBody())),
            Code.point("block2"));
  EXPECT_EQ(offsetOf(Ctx, Points.scopeBegin(Loops[1])), Code.point("body1"));
  EXPECT_EQ(offsetOf(Ctx, Points.scopeEnd(Loops[1])), Code.point("body2"));
}

TEST(EditPoints, ConditionalBlocks) {
  AnnotatedCode Code(EditPointsCode);
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  EditPoints Points(Ctx, P.Sites);
  auto At = [&](llvm::StringRef Name) {
    return locationAt(Ctx, Code.point(Name));
  };
  auto Blocks = Points.conditionalBlocks(At("begin1"), At("after4"));
  ASSERT_TRUE(Blocks);
  ASSERT_EQ(Blocks->size(), 1u);
  EXPECT_EQ((AnnotatedCode::Range{(*Blocks)[0].first, (*Blocks)[0].second}),
            Code.range("block"));
  Blocks = Points.conditionalBlocks(At("begin1"), At("after2"));
  ASSERT_TRUE(Blocks);
  EXPECT_TRUE(Blocks->empty());
  // From inside the block its #endif has no partner.
  EXPECT_FALSE(Points.conditionalBlocks(At("inside1"), At("after4")));

  EXPECT_TRUE(Points.spansConditional(At("begin2"), At("begin3")));
  EXPECT_FALSE(Points.spansConditional(At("begin1"), At("after2")));
  EXPECT_FALSE(Points.spansConditional(At("begin3"), At("after4")));
}

TEST(EditPoints, CutsConditional) {
  AnnotatedCode Code(EditPointsCode);
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  EditPoints Points(Ctx, P.Sites);
  auto At = [&](llvm::StringRef Name) {
    return locationAt(Ctx, Code.point(Name));
  };
  clang::SourceLocation Begin = At("begin1"), End = At("after4");
  EXPECT_FALSE(Points.cutsConditional(Begin, End, {Begin, End}, false));
  EXPECT_TRUE(Points.cutsConditional(Begin, End, {Begin, At("inside1")},
                                     /*InsideOk=*/true));
  // A site's two points inside one block are fine only with InsideOk, and
  // only when both are inside.
  EXPECT_FALSE(Points.cutsConditional(
      Begin, End, {Begin, End, At("inside1"), At("inside2")}, true));
  EXPECT_TRUE(Points.cutsConditional(
      Begin, End, {Begin, End, At("inside1"), At("inside2")}, false));
  EXPECT_TRUE(Points.cutsConditional(
      Begin, End, {Begin, End, At("inside1"), At("begin4")}, true));
  // The directives of the range must pair up.
  EXPECT_TRUE(Points.cutsConditional(At("inside1"), End, {End}, true));
}

} // namespace
