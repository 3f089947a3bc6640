//===- FormatChangesTest.cpp - clang-format over the changed lines --------===//

#include "Emit/FormatChanges.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace clang;

namespace {

/// \p Code with formatChanges' replacements for \p Ranges applied.
std::string formattedRanges(llvm::StringRef Code,
                            llvm::ArrayRef<tooling::Range> Ranges,
                            llvm::StringRef Style = "llvm") {
  llvm::Expected<tooling::Replacements> R =
      formatChanges(Code, Ranges, "/virtual/fmt.cu", Style, "llvm");
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return "";
  }
  for (const tooling::Replacement &Rep : *R) {
    // Whitespace only: nothing but blanks is removed or inserted.
    EXPECT_TRUE(llvm::all_of(Rep.getReplacementText(), llvm::isSpace))
        << Rep.toString();
    EXPECT_TRUE(llvm::all_of(Code.substr(Rep.getOffset(), Rep.getLength()),
                             llvm::isSpace))
        << Rep.toString();
  }
  return llvm::cantFail(tooling::applyAllReplacements(Code, *R));
}

TEST(FormatChanges, OnlyTheChangedLinesAreFormatted) {
  llvm::StringRef Code = "void f() {\n"
                         "  int   a=1;\n"
                         "  int   b=2;\n"
                         "}\n";
  // The range covers the second line only.
  unsigned Begin = Code.find("int   a");
  EXPECT_EQ(formattedRanges(Code, {tooling::Range(Begin, 10)}), "void f() {\n"
                                                                "  int a = 1;\n"
                                                                "  int   b=2;\n"
                                                                "}\n");
}

TEST(FormatChanges, StatementsJoinedOnALineGetLinesOfTheirOwn) {
  llvm::StringRef Code = "void f() {\n  a(); x(); y();\n}\n";
  unsigned Begin = Code.find("x();");
  EXPECT_EQ(formattedRanges(Code, {tooling::Range(Begin, 9)}),
            "void f() {\n  a();\n  x();\n  y();\n}\n");
}

TEST(FormatChanges, TheStyleIsTheOneAsked) {
  llvm::StringRef Code = "void f() {\n  int   a=1;\n  int b = 2;\n}\n";
  EXPECT_EQ(formattedRanges(Code, {tooling::Range(0, Code.size())},
                            "{BasedOnStyle: llvm, IndentWidth: 4}"),
            "void f() {\n    int a = 1;\n    int b = 2;\n}\n");
  EXPECT_EQ(formattedRanges(Code, {tooling::Range(0, Code.size())}, "gnu"),
            "void\nf ()\n{\n  int a = 1;\n  int b = 2;\n}\n");
}

TEST(FormatChanges, AnUnusableStyleIsAnError) {
  llvm::Expected<tooling::Replacements> R =
      formatChanges("int x;\n", {tooling::Range(0, 6)}, "/virtual/fmt.cu",
                    "{NoSuchOption: 3}", "llvm");
  EXPECT_FALSE(bool(R));
  if (!R)
    llvm::consumeError(R.takeError());
  R = formatChanges("int x;\n", {tooling::Range(0, 6)}, "/virtual/fmt.cu",
                    "no-such-style", "llvm");
  EXPECT_FALSE(bool(R));
  if (!R)
    llvm::consumeError(R.takeError());
}

} // namespace
