//===- ObjectStorageTest.cpp - stores into an object's own members --------===//
//
// Which methods write and return only their own object, which variable an
// lvalue reached through them designates, and that a call on a local of
// such a method leaves its caller pure while a call through a pointer does
// not.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ObjectStorage.h"
#include "Analysis/Effects.h"
#include "Analysis/Purity.h"
#include "TestAST.h"
#include "clang/AST/ExprCXX.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const ObjectCode = R"cu(
    struct col { float v[3]; float *out;
      __device__ float &at(int i) { return v[i]; }
      __device__ float &either(int i) { return i ? v[0] : (i > 1 ? v[1] : v[2]); }
      __device__ float &elsewhere(int i) { return out[i]; }
      __device__ col &self() { return *this; }
      __device__ void put(float x) { v[0] = x; }
      __device__ void leak(float x) { out[0] = x; }
      __device__ void viaSelf(float x) { self().put(x); }
    };
    struct mat { col c[2];
      __device__ col &operator[](int i) { return c[i]; }
    };
    __device__ float onLocal(float x) { col k; k.put(x); return k.v[0]; }
    __device__ float onPointer(col *p, float x) { p->put(x); return x; }
    __device__ float leaks(float x) { col k; k.leak(x); return x; }
    __device__ float nested(float x) { mat m; m[1].at(2) = x; return m.c[1].v[2]; }
    __global__ void kern(float *g, col *q) {
      mat mm;
      col kk;
      mm[0].at(1) = g[0];
      kk.at(0) = g[1];
      q->at(0) = g[2];
      kk.elsewhere(0) = g[3];
    })cu";

const clang::CXXMethodDecl *method(clang::ASTContext &Ctx,
                                   llvm::StringRef Record,
                                   llvm::StringRef Name) {
  const clang::CXXMethodDecl *Found = nullptr;
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *R = llvm::dyn_cast<clang::CXXRecordDecl>(D);
        R && R->getName() == Record)
      for (const clang::CXXMethodDecl *M : R->methods())
        if (M->getNameAsString() == Name)
          Found = M;
  EXPECT_TRUE(Found) << Record.str() << "::" << Name.str();
  return Found;
}

/// The left side of each assignment in \p Function's body, in order.
std::vector<const clang::Expr *> assigned(clang::ASTContext &Ctx,
                                          llvm::StringRef Function) {
  std::vector<const clang::Expr *> Out;
  for (const clang::Stmt *S : bodyOf(Ctx, Function))
    if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Out.push_back(BO->getLHS());
  return Out;
}

TEST(ObjectStorage, MethodsReturningTheirOwnStorage) {
  Parsed P = parse(ObjectCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_TRUE(returnsOwnStorage(method(Ctx, "col", "at")));
  EXPECT_TRUE(returnsOwnStorage(method(Ctx, "col", "either")));
  EXPECT_TRUE(returnsOwnStorage(method(Ctx, "col", "self")));
  EXPECT_TRUE(returnsOwnStorage(method(Ctx, "mat", "operator[]")));
  EXPECT_FALSE(returnsOwnStorage(method(Ctx, "col", "elsewhere")));
  EXPECT_FALSE(returnsOwnStorage(method(Ctx, "col", "put")));
}

TEST(ObjectStorage, StorageRootThroughMethods) {
  Parsed P = parse(ObjectCode);
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::Expr *> Lhs = assigned(Ctx, "kern");
  ASSERT_EQ(Lhs.size(), 4u);
  EXPECT_EQ(objectStorageRoot(Lhs[0]), variable(Ctx, "mm"));
  EXPECT_EQ(objectStorageRoot(Lhs[1]), variable(Ctx, "kk"));
  EXPECT_EQ(objectStorageRoot(Lhs[2]), nullptr); // through a pointer
  EXPECT_EQ(objectStorageRoot(Lhs[3]), nullptr); // not its own storage
}

TEST(ObjectStorage, WritesOnlyItsObject) {
  Parsed P = parse(ObjectCode);
  clang::ASTContext &Ctx = P.context();
  CallEffects Put = effectsOfCallee(method(Ctx, "col", "put"));
  EXPECT_TRUE(Put.WritesMemory);
  EXPECT_TRUE(Put.writesOnlyObject());
  // Its object reached through another method's result: not seen.
  EXPECT_FALSE(effectsOfCallee(method(Ctx, "col", "viaSelf")).writesOnlyObject());
  EXPECT_FALSE(effectsOfCallee(method(Ctx, "col", "leak")).writesOnlyObject());
  // Called on a local, the write dies with the caller's frame.
  EXPECT_TRUE(isPureCallee(function(Ctx, "onLocal")));
  EXPECT_TRUE(isPureCallee(function(Ctx, "nested")));
  EXPECT_FALSE(isPureCallee(function(Ctx, "onPointer")));
  EXPECT_FALSE(isPureCallee(function(Ctx, "leaks")));
}

TEST(ObjectStorage, CallObject) {
  Parsed P = parse(ObjectCode);
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::Expr *> Lhs = assigned(Ctx, "kern");
  ASSERT_EQ(Lhs.size(), 4u);
  const auto *ViaPointer =
      llvm::dyn_cast<clang::CallExpr>(Lhs[2]->IgnoreParenImpCasts());
  ASSERT_TRUE(ViaPointer);
  EXPECT_EQ(callObject(ViaPointer), nullptr); // `q->at(0)`
  const auto *OnLocal =
      llvm::dyn_cast<clang::CallExpr>(Lhs[1]->IgnoreParenImpCasts());
  ASSERT_TRUE(OnLocal);
  const clang::Expr *Object = callObject(OnLocal);
  ASSERT_TRUE(Object);
  EXPECT_EQ(objectStorageRoot(Object), variable(Ctx, "kk"));
}

} // namespace
