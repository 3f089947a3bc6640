//===- EditListTest.cpp - text edits of one rewrite, per file -------------===//

#include "Emit/EditList.h"
#include "TestAST.h"
#include "clang/Basic/SourceManager.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The main file of \p P with \p Edits' edits of it applied.
std::string editedMainFile(Parsed &P, const EditList &Edits) {
  const clang::SourceManager &SM = P.context().getSourceManager();
  llvm::Expected<clang::tooling::Replacements> R =
      Edits.finish(SM.getMainFileID());
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return "";
  }
  return llvm::cantFail(clang::tooling::applyAllReplacements(
      SM.getBufferData(SM.getMainFileID()), *R));
}

TEST(EditList, InsertionsAtOneOffsetGoInRankOrder) {
  AnnotatedCode Code(R"cu(__global__ void k(float *g) {
  $at^g[0] = 1.f;
})cu");
  Parsed P = parse(Code.code());
  OutputLayout Layout;
  EditList Edits(P.context(), "/virtual/t.cu", nullptr, Layout);
  clang::SourceLocation At = locationAt(P.context(), Code.point("at"));
  Edits.add(At, 0, "slot(); ", RankSlot);
  Edits.add(At, 0, "batch(); ", RankBatch);
  Edits.add(At, 0, "prologue(); ", RankPrologue);
  EXPECT_FALSE(Edits.landedOutside());
  EXPECT_EQ(editedMainFile(P, Edits), "__global__ void k(float *g) {\n"
                                      "  prologue(); batch(); slot(); g[0] = "
                                      "1.f;\n}");
  EXPECT_EQ(Edits.editedFiles(),
            std::vector<clang::FileID>{
                P.context().getSourceManager().getMainFileID()});
}

TEST(EditList, AnEditInAMacroBodyIsRefused) {
  Parsed P = parse("#define STORE(p) (p)[0] = 1.f\n"
                   "__global__ void k(float *g) { STORE(g); }\n");
  OutputLayout Layout;
  EditList Edits(P.context(), "/virtual/t.cu", nullptr, Layout);
  const auto *Store =
      llvm::cast<clang::BinaryOperator>(bodyOf(P.context(), "k").front());
  // The `=` is spelled in the macro's body: it has no place in the file.
  Edits.add(Store->getOperatorLoc(), 1, "+=", RankSlot);
  EXPECT_TRUE(Edits.landedOutside());
  EXPECT_TRUE(Edits.editedFiles().empty());
}

TEST(EditList, ReplacementsAndFreeRanges) {
  AnnotatedCode Code(R"cu(__global__ void k(float *g, float v) {
  g[0] = $begin^v$end^;
  g[1] =
    $from^v
    + v$to^;
})cu");
  Parsed P = parse(Code.code());
  OutputLayout Layout;
  EditList Edits(P.context(), "/virtual/t.cu", nullptr, Layout);
  clang::ASTContext &Ctx = P.context();
  clang::FileID Main = Ctx.getSourceManager().getMainFileID();
  EXPECT_TRUE(Edits.isFree(Main, 0, 200));
  Edits.replaceTokens(locationAt(Ctx, Code.point("begin")),
                      locationAt(Ctx, Code.point("begin")), "2.f * v");
  Edits.replaceKeepingLines(locationAt(Ctx, Code.point("from")),
                            locationAt(Ctx, Code.point("to")), "w");
  EXPECT_FALSE(Edits.isFree(Main, Code.point("begin"), 0));
  EXPECT_FALSE(Edits.isFree(Main, Code.point("begin") - 3, 5));
  EXPECT_TRUE(Edits.isFree(Main, Code.point("end") + 1, 3));
  // The replaced lines keep their number: a line break stays for each.
  EXPECT_EQ(editedMainFile(P, Edits), "__global__ void k(float *g, float v) {\n"
                                      "  g[0] = 2.f * v;\n"
                                      "  g[1] =\n"
                                      "    w\n"
                                      ";\n"
                                      "}");
}

TEST(EditList, InsertionsBeforeADirectiveGetLinesOfTheirOwn) {
  AnnotatedCode Code("__global__ void k(float *g) {\n"
                     "  $at^#pragma unroll\n"
                     "  for (int i = 0; i < 4; ++i)\n"
                     "    g[i] = 1.f;\n"
                     "}\n");
  Parsed P = parse(Code.code());
  OutputLayout Layout;
  Layout.FormatStyle = "none";
  Layout.Names = LineFileNames::Omitted;
  EditList Edits(P.context(), "/virtual/t.cu", nullptr, Layout);
  Edits.add(locationAt(P.context(), Code.point("at")), 0, "int before;",
            RankBatch);
  EXPECT_EQ(editedMainFile(P, Edits), "__global__ void k(float *g) {\n"
                                      "int before;\n"
                                      "#line 2\n"
                                      "  #pragma unroll\n"
                                      "  for (int i = 0; i < 4; ++i)\n"
                                      "    g[i] = 1.f;\n"
                                      "}\n");
}

TEST(EditList, LineDirectivesNameTheFileAsTheOutputDoes) {
  Parsed P = parse("__global__ void k() {}\n");
  clang::FileID Main = P.context().getSourceManager().getMainFileID();
  OutputLayout Absolute;
  EditList Named(P.context(), "/out/k \"1\".cu", nullptr, Absolute);
  EXPECT_EQ(Named.lineDirective(Main, 7), "#line 7 \"/out/k \\\"1\\\".cu\"");
  OutputLayout Omitted;
  Omitted.Names = LineFileNames::Omitted;
  EditList Unnamed(P.context(), "/out/k.cu", nullptr, Omitted);
  EXPECT_EQ(Unnamed.lineDirective(Main, 7), "#line 7");
  PresumedLine At = presumedLine(P.context().getSourceManager(), Main, 0,
                                 "/out/k.cu", LineFileNames::Absolute);
  EXPECT_EQ(At.Line, 1u);
  EXPECT_EQ(At.QuotedFile, "\"/out/k.cu\"");
}

TEST(EditList, EscapeString) {
  EXPECT_EQ(escapeString("plain"), "plain");
  EXPECT_EQ(escapeString("a\"b\\c"), "a\\\"b\\\\c");
}

} // namespace
