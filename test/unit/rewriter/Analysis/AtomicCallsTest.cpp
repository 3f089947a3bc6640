//===- AtomicCallsTest.cpp - which calls are CUDA's atomics ---------------===//

#include "Analysis/AtomicCalls.h"
#include "TestAST.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The kind of every call of \p Code's function \p Name, in source order.
std::vector<CallKind> callKindsIn(llvm::StringRef Code, llvm::StringRef Name) {
  Parsed P = parse(Code);
  struct Calls : clang::RecursiveASTVisitor<Calls> {
    std::vector<const clang::CallExpr *> Found;
    bool VisitCallExpr(clang::CallExpr *C) {
      Found.push_back(C);
      return true;
    }
  } V;
  V.TraverseDecl(const_cast<clang::FunctionDecl *>(function(P.context(), Name)));
  std::vector<CallKind> Kinds;
  for (const clang::CallExpr *C : V.Found)
    Kinds.push_back(callKind(C, P.context().getSourceManager()));
  return Kinds;
}

TEST(AtomicCalls, CudasAtomicsByKind) {
  EXPECT_EQ(callKindsIn(R"cu(
    __global__ void k(float *g, int *c) {
      atomicAdd(&g[0], 1.f);
      atomicSub(&c[0], 1);
      atomicAdd_block(&g[1], 1.f);
    })cu",
                        "k"),
            (std::vector<CallKind>{CallKind::DeviceAdd, CallKind::OtherAtomic,
                                   CallKind::OtherAtomic}));
}

TEST(AtomicCalls, AProgramsOwnFunctionIsNoAtomic) {
  EXPECT_EQ(callKindsIn(R"cu(
    namespace mine {
    __device__ void atomicAdd(float *p, float v) { *p += v; }
    }
    __global__ void k(float *g) { mine::atomicAdd(&g[0], 1.f); })cu",
                        "k"),
            (std::vector<CallKind>{CallKind::None}));
}

TEST(AtomicCalls, ATemplateThatMayPickTheProgramsOverload) {
  EXPECT_EQ(callKindsIn(R"cu(
    struct Half { unsigned short bits; };
    __device__ void atomicAdd(Half *p, Half v) {}
    template <typename T> __global__ void k(T *g, T v) { atomicAdd(g, v); }
    template <typename T> __global__ void j(T *g, T v) { ::atomicSub(g, v); })cu",
                        "k"),
            (std::vector<CallKind>{CallKind::UserOverload}));
}

} // namespace
