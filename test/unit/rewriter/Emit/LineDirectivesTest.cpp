//===- LineDirectivesTest.cpp - #line directives of the formatted output --===//

#include "Emit/LineDirectives.h"
#include "gtest/gtest.h"

using namespace clang;

namespace distwar {
namespace {

/// \p Original with \p Edits applied, then the directives lineDirectives
/// places (no layout change between).
std::string withDirectives(llvm::StringRef Original,
                           const tooling::Replacements &Edits) {
  std::string Output =
      llvm::cantFail(tooling::applyAllReplacements(Original, Edits));
  auto Presumed = [&](unsigned Offset) {
    return PresumedLine{unsigned(Original.take_front(Offset).count('\n')) + 1,
                        ""};
  };
  tooling::Replacements Directives =
      lineDirectives("k.cu", Original, Edits, {}, Output, Presumed);
  return llvm::cantFail(tooling::applyAllReplacements(Output, Directives));
}

tooling::Replacements insertion(llvm::StringRef Original,
                                llvm::StringRef Before, llvm::StringRef Text) {
  size_t Offset = Original.find(Before);
  EXPECT_NE(Offset, llvm::StringRef::npos) << Before.str();
  return tooling::Replacements(tooling::Replacement("k.cu", Offset, 0, Text));
}

TEST(LineDirectivesTest, LinesAfterInsertedOnesGetTheirNumberBack) {
  llvm::StringRef Original = "void f() {\n"
                             "  a();\n"
                             "  b();\n"
                             "}\n";
  // Two statements inserted after a(); on lines of their own: b() is
  // attributed to line 3 again, the inserted block to line 2.
  EXPECT_EQ(withDirectives(Original,
                           insertion(Original, "\n  b()", "\n  x();\n  y();")),
            "void f() {\n"
            "  a();\n"
            "#line 2\n"
            "  x();\n"
            "  y();\n"
            "#line 3\n"
            "  b();\n"
            "}\n");
}

TEST(LineDirectivesTest, CodeOnTheSameLinesNeedsNoDirective) {
  llvm::StringRef Original = "void f() {\n  a();\n  b();\n}\n";
  EXPECT_EQ(withDirectives(Original, insertion(Original, "b()", "x(); ")),
            "void f() {\n  a();\n  x(); b();\n}\n");
}

TEST(LineDirectivesTest, CodeInsertedBeforeALineTakesTheNumbersBeforeIt) {
  llvm::StringRef Original = "void f() {\n"
                             "  a();\n"
                             "  for (;;) {}\n"
                             "}\n";
  EXPECT_EQ(withDirectives(Original,
                           insertion(Original, "for", "int c = 0;\n  ")),
            "void f() {\n"
            "  a();\n"
            "  int c = 0;\n"
            "#line 3\n"
            "  for (;;) {}\n"
            "}\n");
}

TEST(LineDirectivesTest, NoDirectiveBetweenAPragmaAndItsLoop) {
  llvm::StringRef Original = "void f() {\n"
                             "  a();\n"
                             "  for (;;) {}\n"
                             "}\n";
  tooling::Replacements Edits =
      insertion(Original, "\n  for", "\n  x();\n  y();\n#pragma unroll");
  EXPECT_EQ(withDirectives(Original, Edits),
            "void f() {\n"
            "  a();\n"
            "#line 2\n"
            "  x();\n"
            "  y();\n"
            "#line 2\n"
            "#pragma unroll\n"
            "  for (;;) {}\n"
            "}\n");
}

TEST(LineDirectivesTest, NoDirectiveInsideParenthesesOrAnExpression) {
  // A macro's arguments may not hold a directive; neither does a line that
  // continues an expression. The next statement gets the number back.
  llvm::StringRef Original = "void f() {\n"
                             "  g(1,\n"
                             "    2);\n"
                             "  int v = 1 +\n"
                             "          2;\n"
                             "  b();\n"
                             "}\n";
  tooling::Replacements Edits =
      insertion(Original, "  g(1", "  x();\n  y();\n");
  llvm::cantFail(Edits.add(tooling::Replacement(
      "k.cu", Original.find("1 +") + 3, 0, "\n          0 +")));
  std::string Out = withDirectives(Original, Edits);
  EXPECT_EQ(Out, "void f() {\n"
                 "  x();\n"
                 "  y();\n"
                 "#line 2\n"
                 "  g(1,\n"
                 "    2);\n"
                 "  int v = 1 +\n"
                 "          0 +\n"
                 "          2;\n"
                 "#line 6\n"
                 "  b();\n"
                 "}\n");
}

TEST(LineDirectivesTest, AfterAConditionalTheNumberIsGivenAgain) {
  // A directive placed in an #if's branch is skipped with the branch; the
  // line after the branch gets its number whatever the condition.
  llvm::StringRef Original = "void f() {\n"
                             "  a();\n"
                             "#if X\n"
                             "  b();\n"
                             "#endif\n"
                             "  c();\n"
                             "}\n";
  std::string Out = withDirectives(
      Original, insertion(Original, "\n#endif", "\n  x();"));
  EXPECT_EQ(Out, "void f() {\n"
                 "  a();\n"
                 "#if X\n"
                 "  b();\n"
                 "#line 4\n"
                 "  x();\n"
                 "#endif\n"
                 "#line 6\n"
                 "  c();\n"
                 "}\n");
}

} // namespace
} // namespace distwar
