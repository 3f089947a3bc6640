//===- CursorEditsTest.cpp - shared-array cursors, written ----------------===//

#include "Emit/CursorEdits.h"
#include "Emit/EditList.h"
#include "TestAST.h"
#include "clang/Basic/SourceManager.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const CursorCode = R"cu(
    __global__ void k(float *g, int n) {
      __shared__ float a[64];
      __shared__ float c[3 * 64];
      for (int j = 0; j < min(64, n); j++) {
        g[j] = a[j] + c[64 + j];
      }
    })cu";

/// The main file after \p Edits.
std::string withCursorEdits(Parsed &P, const EditList &Edits) {
  const clang::SourceManager &SM = P.context().getSourceManager();
  return llvm::cantFail(clang::tooling::applyAllReplacements(
      SM.getBufferData(SM.getMainFileID()),
      llvm::cantFail(Edits.finish(SM.getMainFileID()))));
}

TEST(CursorEdits, EachArrayReadAtTheCounterGetsACursor) {
  Parsed P = parse(CursorCode);
  clang::ASTContext &Ctx = P.context();
  OutputLayout Layout;
  EditList Edits(Ctx, "/virtual/t.cu", nullptr, Layout);
  std::map<clang::FileID, unsigned> Counts;
  planCursorEdits(Ctx, function(Ctx, "k"), forLoops(Ctx).front(), Edits,
                  Counts);
  std::string Text = withCursorEdits(P, Edits);
  EXPECT_NE(Text.find("auto *distwar_cursor0 = a; auto *distwar_cursor1 = c; "
                      "for (int j = 0; j < min(64, n); j++, "
                      "++distwar_cursor0, ++distwar_cursor1) {"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("g[j] = distwar_cursor0[0] + distwar_cursor1[64];"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Counts[Ctx.getSourceManager().getMainFileID()], 2u);
}

TEST(CursorEdits, AnAccessAnotherEditTouchesKeepsItsSubscript) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *g, int n) {
      __shared__ float a[64];
      __shared__ float c[3 * 64];
      for (int j = 0; j < min(64, n); j++) {
        g[j] = $a^a[j] + c[64 + j];
      }
    })cu");
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  OutputLayout Layout;
  EditList Edits(Ctx, "/virtual/t.cu", nullptr, Layout);
  Edits.add(locationAt(Ctx, Code.point("a")), 1, "b", RankSlot);
  std::map<clang::FileID, unsigned> Counts;
  planCursorEdits(Ctx, function(Ctx, "k"), forLoops(Ctx).front(), Edits,
                  Counts);
  std::string Text = withCursorEdits(P, Edits);
  // Only c's cursor, which takes the file's first number.
  EXPECT_NE(Text.find("auto *distwar_cursor0 = c; for"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("g[j] = b[j] + distwar_cursor0[64];"), std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("distwar_cursor1"), std::string::npos) << Text;
}

TEST(CursorEdits, NoQualifyingArrayNoEdit) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *in, int n) {
      for (int j = 0; j < n; j++)
        g[j] = in[j];
    })cu");
  clang::ASTContext &Ctx = P.context();
  OutputLayout Layout;
  EditList Edits(Ctx, "/virtual/t.cu", nullptr, Layout);
  std::map<clang::FileID, unsigned> Counts;
  planCursorEdits(Ctx, function(Ctx, "k"), forLoops(Ctx).front(), Edits,
                  Counts);
  EXPECT_TRUE(Edits.editedFiles().empty());
  EXPECT_TRUE(Counts.empty() ||
              Counts[Ctx.getSourceManager().getMainFileID()] == 0);
}

} // namespace
