//===- ParseFailureTest.cpp - what to tell the user when Clang fails ------===//

#include "Parse/ParseFailure.h"
#include "TestAST.h"
#include "clang/Basic/AllDiagnostics.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// Parses \p Code as /virtual/pfail.cu with \p Failure as the diagnostics'
/// consumer.
void parseInto(llvm::StringRef Code, ParseFailure &Failure) {
  // The printer writes Clang's text only inside a source file.
  Failure.BeginSourceFile(clang::LangOptions(), nullptr);
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          Code, hermeticArgs(), "/virtual/pfail.cu", "clang-tool",
          std::make_shared<clang::PCHContainerOperations>(),
          clang::tooling::getClangStripDependencyFileAdjuster(),
          clang::tooling::FileContentMappings(), &Failure);
  Failure.EndSourceFile();
}

TEST(ParseFailure, NoErrorNoSummary) {
  ParseFailure Failure;
  parseInto("__global__ void k(float *g) { g[0] = 1; }\n", Failure);
  EXPECT_FALSE(Failure.hasError());
  EXPECT_EQ(Failure.summary(), "");
}

TEST(ParseFailure, TheFirstErrorIsTheSummary) {
  ParseFailure Failure;
  parseInto("__global__ void k(float *g) {\n"
            "  g[0] = first_missing;\n"
            "  g[1] = second_missing;\n"
            "}\n",
            Failure);
  ASSERT_TRUE(Failure.hasError());
  EXPECT_EQ(Failure.summary(),
            "/virtual/pfail.cu:2:10: Clang cannot parse this: use of "
            "undeclared identifier 'first_missing'");
  std::string Text = Failure.text();
  EXPECT_EQ(Text.rfind(Failure.summary() + "\n", 0), 0u) << Text;
  // Clang's own diagnostics follow, both errors of them.
  EXPECT_NE(Text.find("second_missing"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("not shown"), std::string::npos) << Text;
  EXPECT_FALSE(Failure.fromPrecompiledHeader());
  EXPECT_FALSE(Failure.fromConstantEvaluation());
}

TEST(ParseFailure, ErrorsBeyondTheThirdAreCounted) {
  ParseFailure Failure;
  parseInto("__global__ void k(float *g) {\n"
            "  g[0] = m1; g[1] = m2; g[2] = m3; g[3] = m4; g[4] = m5;\n"
            "}\n",
            Failure);
  std::string Text = Failure.text();
  EXPECT_NE(Text.find("(2 more errors not shown)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("m3"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("'m4'"), std::string::npos) << Text;
}

TEST(ParseFailure, ConstantsClangCannotEvaluateGetAHint) {
  ParseFailure Failure;
  parseInto("int runtime();\n"
            "constexpr int n = runtime();\n",
            Failure);
  ASSERT_TRUE(Failure.hasError());
  EXPECT_TRUE(Failure.fromConstantEvaluation());
  EXPECT_NE(Failure.summary().find(
                "; " + nvccDifferenceHint(
                           clang::diag::err_constexpr_var_requires_const_init)
                           .str()),
            std::string::npos)
      << Failure.summary();
}

TEST(ParseFailure, HintsOnlyForWhatNvccAccepts) {
  EXPECT_FALSE(nvccDifferenceHint(clang::diag::err_ovl_ambiguous_call).empty());
  EXPECT_FALSE(nvccDifferenceHint(clang::diag::err_ref_bad_target).empty());
  EXPECT_FALSE(nvccDifferenceHint(clang::diag::err_expr_not_ice).empty());
  EXPECT_TRUE(nvccDifferenceHint(clang::diag::err_undeclared_var_use).empty());
}

} // namespace
