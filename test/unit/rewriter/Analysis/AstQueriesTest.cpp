//===- AstQueriesTest.cpp - constants, callees, counting loops, text ------===//

#include "Analysis/AstQueries.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const AstQueriesCode = R"cu(
    constexpr int K = 4;
    #define TWICE_X (2 * x)
    __device__ float twice(float v) { return 2.f * v; }
    template <int N> __device__ int fromParamFn(int v) {
      int fromParam = N + 1;
      return fromParam + v;
    }
    template <typename T> __device__ T deferred(T v) {
      T unresolved = twice(v);
      return unresolved;
    }
    __global__ void k(float *a, int n, float x) {
      int local = n;
      const int c = 5;
      int lit = 2 + 3;
      int fromK = K * 2;
      int fromC = c;
      int fromLocal = local;
      float resolved = sqrtf(x);
      float (*fp)(float) = twice;
      float viaPointer = fp(x);
      float spaced = sqrtf(  x );
      float whole = TWICE_X;
      int i;
      for (int j = 3; j < n; ++j) {}
      for (int j = 0; j < n; j += 2) {}
      for (i = 1; i < n; i++) {}
    })cu";

/// The initializer of the variable \p Name, implicit nodes removed.
const clang::Expr *initOf(clang::ASTContext &Ctx, llvm::StringRef Name) {
  const clang::VarDecl *V = variable(Ctx, Name);
  return V && V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr;
}

/// The integer a loop's start expression is written as, or -1.
int64_t startValue(const CountingLoop &L) {
  const auto *Lit =
      llvm::dyn_cast<clang::IntegerLiteral>(L.Start->IgnoreParenImpCasts());
  return Lit ? Lit->getValue().getSExtValue() : -1;
}

TEST(AstQueries, CompileTimeConstants) {
  Parsed P = parse(AstQueriesCode);
  clang::ASTContext &Ctx = P.context();
  for (const char *Name : {"lit", "fromK", "fromC", "fromParam"}) {
    const clang::Expr *E = initOf(Ctx, Name);
    ASSERT_TRUE(E) << Name;
    EXPECT_TRUE(isCompileTimeConstant(E, Ctx)) << Name;
  }
  const clang::Expr *E = initOf(Ctx, "fromLocal");
  ASSERT_TRUE(E);
  EXPECT_FALSE(isCompileTimeConstant(E, Ctx));
}

TEST(AstQueries, CalleeNames) {
  Parsed P = parse(AstQueriesCode);
  clang::ASTContext &Ctx = P.context();
  auto CalleeOf = [&](llvm::StringRef Var) -> std::string {
    const auto *Call =
        llvm::dyn_cast_or_null<clang::CallExpr>(initOf(Ctx, Var));
    EXPECT_TRUE(Call) << Var.str();
    return Call ? calleeName(Call).str() : "<no call>";
  };
  EXPECT_EQ(CalleeOf("resolved"), "sqrtf");
  // In the template the call waits for T: no declaration is chosen yet.
  EXPECT_EQ(CalleeOf("unresolved"), "twice");
  EXPECT_EQ(CalleeOf("viaPointer"), "");
}

TEST(AstQueries, CountingLoops) {
  Parsed P = parse(AstQueriesCode);
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 3u);
  std::optional<CountingLoop> Declared = matchCountingLoop(Loops[0]);
  ASSERT_TRUE(Declared);
  ASSERT_TRUE(Declared->Var);
  EXPECT_EQ(Declared->Var->getName(), "j");
  EXPECT_EQ(startValue(*Declared), 3);
  EXPECT_FALSE(matchCountingLoop(Loops[1])); // steps by 2
  std::optional<CountingLoop> Assigned = matchCountingLoop(Loops[2]);
  ASSERT_TRUE(Assigned);
  EXPECT_EQ(Assigned->Var, variable(Ctx, "i"));
  EXPECT_EQ(startValue(*Assigned), 1);
}

TEST(AstQueries, SourceTextAsWritten) {
  Parsed P = parse(AstQueriesCode);
  clang::ASTContext &Ctx = P.context();
  const clang::Expr *Spaced = initOf(Ctx, "spaced");
  ASSERT_TRUE(Spaced);
  EXPECT_EQ(sourceText(Spaced, Ctx), "sqrtf(  x )");
  // A whole invocation is its text in the file; a part of the macro body
  // has none there.
  const auto *Whole =
      llvm::dyn_cast_or_null<clang::ParenExpr>(initOf(Ctx, "whole"));
  ASSERT_TRUE(Whole);
  EXPECT_EQ(sourceText(Whole, Ctx), "TWICE_X");
  EXPECT_EQ(sourceText(Whole->getSubExpr(), Ctx), "");
}

TEST(AstQueries, PresumedPlacesTakeTheLineADirectiveGives) {
  // Rewritten text keeps the user's line numbers through #line directives;
  // a place in it is the user's line, the physical one is placeAt's.
  AnnotatedCode Code("// a prologue\n#line 40\n"
                     "__global__ void k(float *v) { $use^v[0] = 1; }\n");
  Parsed P = parse(Code.code());
  const clang::SourceManager &SM = P.context().getSourceManager();
  clang::SourceLocation Use = locationAt(P.context(), Code.point("use"));
  std::optional<ReasonPlace> Presumed = presumedPlaceAt(SM, Use, "here");
  ASSERT_TRUE(Presumed);
  EXPECT_EQ(Presumed->Line, 40u);
  EXPECT_EQ(Presumed->Column, 31u);
  EXPECT_EQ(Presumed->File, "");
  EXPECT_EQ(Presumed->Text, "here");
  std::optional<ReasonPlace> Spelled = placeAt(SM, Use, "here");
  ASSERT_TRUE(Spelled);
  EXPECT_EQ(Spelled->Line, 3u);
}

} // namespace
