//===- UnparsedFunctionsTest.cpp - functions Clang could not parse --------===//

#include "Find/UnparsedFunctions.h"
#include "TestAST.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// A parse with errors, and what UnparsedFunctions makes of them.
struct UnparsedParse {
  std::unique_ptr<clang::ASTUnit> AST;
  std::optional<UnparsedFunctions> Unparsed;

  /// The verdict on the main file's function \p Name.
  Verdict of(llvm::StringRef Name) const {
    const clang::FunctionDecl *FD = function(AST->getASTContext(), Name);
    return FD && Unparsed ? Unparsed->verdict(FD) : Verdict();
  }
};

UnparsedParse parseUnparsed(llvm::StringRef Code) {
  UnparsedParse P;
  clang::IgnoringDiagConsumer Quiet;
  ErrorLog Log(Quiet);
  P.AST = clang::tooling::buildASTFromCodeWithArgs(
      Code, hermeticArgs(), "/virtual/t.cu", "distwar-test",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), {}, &Log);
  EXPECT_TRUE(P.AST);
  EXPECT_FALSE(Log.errors().empty()) << "the test code should not parse";
  if (P.AST)
    P.Unparsed = UnparsedFunctions::find(P.AST->getASTContext(), Log.errors());
  return P;
}

TEST(UnparsedFunctions, AnErrorAndEveryFunctionThatReachesIt) {
  AnnotatedCode Code(R"cu(
__device__ float broken(float v) { return v + $error^unknown_name; }
__device__ float caller(float v) { return $call^broken(v); }
__device__ float viaLambda(float v) {
  auto f = [](float x) { return $lambda^caller(x); };
  return f(v);
}
__device__ float (*pointer())(float) { return &$named^broken; }
__device__ float clean(float v) { return v * 2; }
__global__ void kernel(float *p) { p[0] = clean(p[0]); }
)cu");
  UnparsedParse P = parseUnparsed(Code.code());
  ASSERT_TRUE(P.Unparsed);
  auto At = [&](llvm::StringRef Name) -> std::pair<Reason, unsigned> {
    Verdict V = P.of(Name);
    unsigned Column = V.Place ? V.Place->Column : 0;
    return {V.Code, Column};
  };
  auto ColumnOf = [&](llvm::StringRef Point) {
    size_t Offset = Code.point(Point);
    return unsigned(Offset - Code.code().rfind('\n', Offset - 1));
  };
  EXPECT_EQ(At("broken"),
            std::make_pair(Reason::ParseErrorInFunction, ColumnOf("error")));
  EXPECT_EQ(At("caller"),
            std::make_pair(Reason::ParseErrorInFunction, ColumnOf("call")));
  EXPECT_EQ(At("viaLambda"),
            std::make_pair(Reason::ParseErrorInFunction, ColumnOf("lambda")));
  EXPECT_EQ(At("pointer"),
            std::make_pair(Reason::ParseErrorInFunction, ColumnOf("named")));
  EXPECT_EQ(P.of("clean"), Reason::None);
  EXPECT_EQ(P.of("kernel"), Reason::None);
  EXPECT_EQ(P.Unparsed->userFunctions(), 4u);
  // Only the function with the error holds it; the others reach it.
  clang::ASTContext &Ctx = P.AST->getASTContext();
  EXPECT_TRUE(P.Unparsed->holdsError(function(Ctx, "broken")));
  EXPECT_FALSE(P.Unparsed->holdsError(function(Ctx, "caller")));
  EXPECT_FALSE(P.Unparsed->holdsError(function(Ctx, "clean")));
  ASSERT_TRUE(P.of("broken").Place);
  EXPECT_EQ(P.of("broken").Place->Text,
            "Clang reports: use of undeclared identifier 'unknown_name'");
}

TEST(UnparsedFunctions, AnInstantiationsErrorBelongsToTheTemplateAndItsAsker) {
  AnnotatedCode Code(R"cu(
__device__ float pick(float a, float b) { return a; }
__device__ int pick(int a, int b) { return a; }
template <typename T> __device__ T twice(T v) { return pick(v, v); }
__global__ void asksDouble(double *p) { p[0] = $asked^twice(p[0]); }
__global__ void usesPick(float *p) { p[0] = pick(p[0], p[1]); }
__global__ void usesFloat(float *p) { p[0] = twice(p[0]); }
)cu");
  UnparsedParse P = parseUnparsed(Code.code());
  ASSERT_TRUE(P.Unparsed);
  EXPECT_EQ(P.of("twice"), Reason::ParseErrorInFunction);
  EXPECT_EQ(P.of("asksDouble"), Reason::ParseErrorInFunction);
  // The overloads themselves are sound, and so is a call that resolves,
  // and the float instantiation of the template.
  EXPECT_EQ(P.of("pick"), Reason::None);
  EXPECT_EQ(P.of("usesPick"), Reason::None);
  EXPECT_EQ(P.of("usesFloat"), Reason::None);
}

TEST(UnparsedFunctions, ErrorsOutsideFunctionsCannotBeAttributed) {
  EXPECT_FALSE(parseUnparsed("unknown_type global;\n"
                             "__device__ float f(float v) { return v; }\n")
                   .Unparsed);
  // A declaration may be used anywhere, with a body or without.
  EXPECT_FALSE(parseUnparsed("__device__ float g(unknown_type v);\n").Unparsed);
  EXPECT_FALSE(
      parseUnparsed("__device__ float g(unknown_type v) { return 1.f; }\n")
          .Unparsed);
  EXPECT_FALSE(parseUnparsed("struct S { unknown_type x; };\n").Unparsed);
  // The parser's recovery may skip past the function with a syntax error.
  EXPECT_FALSE(parseUnparsed("__device__ float f(float v) { return v }\n"
                             "__device__ float g(float v) { return v; }\n")
                   .Unparsed);
  // A fatal error cuts the parse short.
  EXPECT_FALSE(parseUnparsed("__device__ float f(float v) { return v; }\n"
                             "#include \"no/such/header.cuh\"\n")
                   .Unparsed);
}

} // namespace
