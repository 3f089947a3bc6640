//===- OutputTextTest.cpp - the rewritten text, compact or formatted ------===//

#include "Emit/OutputText.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace clang;

namespace {

const char *const OutputOriginal = "void f() {\n"
                                   "  a();\n"
                                   "  b();\n"
                                   "}\n";

/// Inserts ` x(); y();` after `a();` of OutputOriginal.
tooling::Replacements joinedInsertion() {
  llvm::StringRef Original = OutputOriginal;
  unsigned At = Original.find("a();") + 4;
  return tooling::Replacements(
      tooling::Replacement("/virtual/out.cu", At, 0, " x(); y();"));
}

llvm::Expected<OutputText> layOut(const tooling::Replacements &Edits,
                                  llvm::StringRef Style) {
  llvm::StringRef Original = OutputOriginal;
  OutputLayout Layout;
  Layout.FormatStyle = Style.str();
  Layout.Names = LineFileNames::Omitted;
  auto Presumed = [&](unsigned Offset) {
    return PresumedLine{unsigned(Original.take_front(Offset).count('\n')) + 1,
                        ""};
  };
  return layOutEdits("/virtual/out.cu", Original, Edits, Layout, Presumed);
}

TEST(OutputText, TheCompactFormKeepsEveryLine) {
  llvm::Expected<OutputText> Out = layOut(joinedInsertion(), "none");
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Text, "void f() {\n"
                       "  a(); x(); y();\n"
                       "  b();\n"
                       "}\n");
  EXPECT_EQ(
      llvm::cantFail(tooling::applyAllReplacements(OutputOriginal, Out->Edits)),
      Out->Text);
}

TEST(OutputText, TheFormattedFormGivesLinesTheirNumbersBack) {
  llvm::Expected<OutputText> Out = layOut(joinedInsertion(), "llvm");
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Text, "void f() {\n"
                       "  a();\n"
                       "#line 2\n"
                       "  x();\n"
                       "  y();\n"
                       "#line 3\n"
                       "  b();\n"
                       "}\n");
  // The edits describe the whole text: a fixes file replays them.
  EXPECT_EQ(
      llvm::cantFail(tooling::applyAllReplacements(OutputOriginal, Out->Edits)),
      Out->Text);
}

TEST(OutputText, NoEditsNoChange) {
  llvm::Expected<OutputText> Out = layOut(tooling::Replacements(), "llvm");
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Text, OutputOriginal);
  EXPECT_TRUE(Out->Edits.empty());
}

TEST(OutputText, AnUnusableStyleIsAnError) {
  llvm::Expected<OutputText> Out = layOut(joinedInsertion(), "{Nope: 1}");
  EXPECT_FALSE(bool(Out));
  if (!Out)
    llvm::consumeError(Out.takeError());
}

} // namespace
