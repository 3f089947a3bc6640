//===- TileErrorsTest.cpp - the kernels Clang's errors keep as written ----===//

#include "Decide/TileErrors.h"
#include "Parse/ParsedFile.h"
#include "TestAST.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// Parses \p Code (with errors) and calls \p Body with the parse and its
/// TileErrors.
void withErrors(
    llvm::StringRef Code,
    llvm::function_ref<void(ParsedFile &, const TileErrors &)> Body) {
  bool Called = false;
  llvm::Error E = parseFile("/virtual/t.cu", Code, FrontEnd(hermeticArgs()),
                            [&](ParsedFile &P) {
                              Called = true;
                              ASSERT_TRUE(P.HasErrors);
                              TileErrors Errors(P.Ctx, P.Tokens, P.Errors);
                              Body(P, Errors);
                            });
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_TRUE(Called);
}

/// The verdict on kernel \p Name, named by \p Refs.
Verdict verdictOn(ParsedFile &P, const TileErrors &Errors, llvm::StringRef Name,
                  llvm::ArrayRef<const clang::Expr *> Refs = {}) {
  const clang::FunctionDecl *K = function(P.Ctx, Name);
  return K ? Errors.verdict(K, Refs) : Verdict();
}

/// The expressions of the main file that name \p Name.
std::vector<const clang::Expr *> refsTo(ParsedFile &P, llvm::StringRef Name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    std::vector<const clang::Expr *> Found;
    bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
      const clang::IdentifierInfo *Id = E->getDecl()->getIdentifier();
      if (Id && Id->getName() == Name)
        Found.push_back(E);
      return true;
    }
  } F;
  F.Name = Name;
  F.TraverseDecl(P.Ctx.getTranslationUnitDecl());
  return F.Found;
}

TEST(TileErrors, TheKernelWhatItCallsAndWhatLaunchesIt) {
  withErrors(
      R"cu(
__device__ float f(float a, float b) { return a + b; }
__device__ double f(double a, double b) { return a * b; }
__device__ float mixed(float a, double b) { return f(a, b); }
__global__ void own(float *v) { v[blockIdx.x] = f(v[0], 2.0); }
__global__ void callsBroken(float *v) { v[blockIdx.x] = mixed(v[0], 2.0); }
__global__ void launchedBroken(float *v) { v[blockIdx.x] = 1; }
__global__ void sound(float *v) { v[blockIdx.x] = 1; }
void run(float *v) {
  launchedBroken<<<1, 1>>>(v);
  float x = f(v[0], 2.0);
  (void)x;
}
void other(float *v) { sound<<<1, 1>>>(v); }
)cu",
      [&](ParsedFile &P, const TileErrors &Errors) {
        EXPECT_TRUE(Errors.attributed());
        Verdict Own = verdictOn(P, Errors, "own");
        EXPECT_EQ(Own.Code, Reason::TileParseError);
        ASSERT_TRUE(Own.Place);
        EXPECT_EQ(Own.Place->Line, 5u);
        EXPECT_EQ(Own.Place->Text, "Clang reports: call to 'f' is ambiguous");
        Verdict Calls = verdictOn(P, Errors, "callsBroken");
        EXPECT_EQ(Calls.Code, Reason::TileParseError);
        ASSERT_TRUE(Calls.Place);
        EXPECT_EQ(Calls.Place->Line, 6u);
        Verdict Launched =
            verdictOn(P, Errors, "launchedBroken", refsTo(P, "launchedBroken"));
        EXPECT_EQ(Launched.Code, Reason::TileParseError);
        ASSERT_TRUE(Launched.Place);
        EXPECT_EQ(Launched.Place->Line, 10u);
        EXPECT_EQ(Launched.Place->Text,
                  "the kernel is named here, in 'run', which Clang "
                  "could not parse");
        EXPECT_EQ(verdictOn(P, Errors, "sound", refsTo(P, "sound")),
                  Reason::None);
      });
}

TEST(TileErrors, AnUnparsedFunctionThatSpellsTheNameKeepsTheKernel) {
  // The launch may be all Clang dropped: the tokens still show it.
  withErrors(R"cu(
__global__ void k(float *v) { v[blockIdx.x] = 1; }
void run(float *v) {
  k<<<1, 1>>>(v);
  v[0] = undeclared;
}
)cu",
             [&](ParsedFile &P, const TileErrors &Errors) {
               Verdict V = verdictOn(P, Errors, "k");
               EXPECT_EQ(V.Code, Reason::TileParseError);
               ASSERT_TRUE(V.Place);
               EXPECT_EQ(V.Place->Line, 4u);
               EXPECT_EQ(V.Place->Column, 3u);
               EXPECT_NE(V.Place->Text.find("'run', which Clang could not "
                                            "parse, spells the kernel's name"),
                         std::string::npos)
                   << V.Place->Text;
             });
}

TEST(TileErrors, AnErrorOutsideEveryFunctionKeepsEveryKernel) {
  withErrors(R"cu(
unknown_t scale;
__global__ void k(float *v) { v[blockIdx.x] = 1; }
)cu",
             [&](ParsedFile &P, const TileErrors &Errors) {
               EXPECT_FALSE(Errors.attributed());
               EXPECT_EQ(Errors.unparsedUserFunctions(), 0u);
               Verdict V = verdictOn(P, Errors, "k");
               EXPECT_EQ(V.Code, Reason::TileParseError);
               ASSERT_TRUE(V.Place);
               EXPECT_EQ(V.Place->Line, 2u);
               EXPECT_NE(V.Place->Text.find("unknown type name 'unknown_t'"),
                         std::string::npos)
                   << V.Place->Text;
             });
}

TEST(TileErrors, PlacesAreTheLinesTheDirectivesGive) {
  // The pass parses the batched text: its #line directives hold the user's
  // line numbers.
  withErrors("// the batching's prologue\n"
             "#line 40\n"
             "__global__ void k(float *v) { v[blockIdx.x] = undeclared; }\n",
             [&](ParsedFile &P, const TileErrors &Errors) {
               Verdict V = verdictOn(P, Errors, "k");
               ASSERT_TRUE(V.Place);
               EXPECT_EQ(V.Place->Line, 40u);
             });
}

} // namespace
