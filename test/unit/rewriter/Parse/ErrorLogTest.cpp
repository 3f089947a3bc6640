//===- ErrorLogTest.cpp - where Clang's errors point ----------------------===//

#include "Parse/ErrorLog.h"
#include "TestAST.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// Counts what reaches it, as the consumer an ErrorLog forwards to.
class CountingConsumer : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Level == clang::DiagnosticsEngine::Note ? ++Notes : ++Others;
  }
  unsigned Notes = 0, Others = 0;
};

std::unique_ptr<clang::ASTUnit> parseLogged(llvm::StringRef Code,
                                            ErrorLog &Log) {
  return clang::tooling::buildASTFromCodeWithArgs(
      Code, hermeticArgs(), "/virtual/t.cu", "distwar-test",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), {}, &Log);
}

TEST(ErrorLog, KeepsEachErrorAndWhereItsInstantiationWasAsked) {
  AnnotatedCode Code(R"cu(
__device__ float pick(float a, float b) { return a; }
__device__ int pick(int a, int b) { return a; }
template <typename T> __device__ T twice(T v) { return $error^pick(v, v); }
__global__ void k(double *p) { p[0] = $asked^twice(p[0]); }
)cu");
  CountingConsumer Next;
  ErrorLog Log(Next);
  std::unique_ptr<clang::ASTUnit> AST = parseLogged(Code.code(), Log);
  ASSERT_TRUE(AST);
  const clang::ASTContext &Ctx = AST->getASTContext();
  ASSERT_EQ(Log.errors().size(), 1u);
  const ClangError &E = Log.errors().front();
  EXPECT_EQ(offsetOf(Ctx, E.Loc), Code.point("error"));
  EXPECT_EQ(E.Message, "call to 'pick' is ambiguous");
  EXPECT_FALSE(E.Fatal);
  EXPECT_FALSE(E.Syntax);
  // The candidates' notes name the overloads, not a requester.
  ASSERT_EQ(E.RequestedAt.size(), 1u);
  EXPECT_EQ(offsetOf(Ctx, E.RequestedAt.front()), Code.point("asked"));
  // Everything is passed on: the error, the instantiation and two
  // candidates.
  EXPECT_EQ(Next.Others, 1u);
  EXPECT_EQ(Next.Notes, 3u);
}

TEST(ErrorLog, AMissingIncludeIsFatal) {
  CountingConsumer Next;
  ErrorLog Log(Next);
  std::unique_ptr<clang::ASTUnit> AST =
      parseLogged("#include \"no/such/header.cuh\"\n", Log);
  ASSERT_EQ(Log.errors().size(), 1u);
  EXPECT_TRUE(Log.errors().front().Fatal);
}

TEST(ErrorLog, ParserErrorsAreSyntax) {
  CountingConsumer Next;
  ErrorLog Log(Next);
  std::unique_ptr<clang::ASTUnit> AST =
      parseLogged("__device__ float f(float v) { return v }\n", Log);
  ASSERT_EQ(Log.errors().size(), 1u);
  EXPECT_TRUE(Log.errors().front().Syntax);
  EXPECT_FALSE(Log.errors().front().Fatal);
}

TEST(ErrorLog, WarningsAreNotErrors) {
  CountingConsumer Next;
  ErrorLog Log(Next);
  std::unique_ptr<clang::ASTUnit> AST = parseLogged(
      "__device__ __attribute__((no_such_attribute)) void f() {}\n", Log);
  ASSERT_TRUE(AST);
  EXPECT_TRUE(Log.errors().empty());
  EXPECT_EQ(Next.Others, 1u); // the unknown attribute's warning
}

} // namespace
