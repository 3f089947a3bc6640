//===- OpaqueKeysTest.cpp - keys computed by pure device functions --------===//

#include "Find/OpaqueKeys.h"
#include "TestAST.h"
#include "llvm/ADT/FoldingSet.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const OpaqueKeysCode = R"cu(
    struct Tex {
      int w;
      __device__ int index(int y, int x, int c) const {
        return (y * w + x) * 4 + c;
      }
    };
    __device__ int texel(int y, int x) { return y * 64 + x; }
    __device__ int counter;
    __device__ int nextSlot(int x) { return counter++ + x; }
    __global__ void k(Tex t, int i, int j) {
      int a0 = texel(i, 0);
      int a1 = texel(i, 1);
      int b0 = texel(j, 0);
      int m0 = t.index(i, j, 0);
      int m2 = t.index(i, j, 2);
      int impure = nextSlot(i);
      int side = texel(i++, 0);
      int plain = i * 4 + 1;
    })cu";

/// The initialiser of \p Name.
const clang::Expr *keyInit(clang::ASTContext &Ctx, llvm::StringRef Name) {
  const clang::VarDecl *V = variable(Ctx, Name);
  return V ? V->getInit() : nullptr;
}

unsigned keyProfileHash(clang::ASTContext &Ctx, llvm::StringRef Name) {
  llvm::FoldingSetNodeID Id;
  profileGroupKey(keyInit(Ctx, Name), Id, Ctx);
  return Id.ComputeHash();
}

TEST(OpaqueKeys, CallsOfPureFunctionsAreOpaqueKeys) {
  Parsed P = parse(OpaqueKeysCode);
  clang::ASTContext &Ctx = P.context();
  const clang::CallExpr *Call = opaqueCallKey(keyInit(Ctx, "a0"), Ctx);
  ASSERT_TRUE(Call);
  EXPECT_EQ(Call->getDirectCallee()->getName(), "texel");
  // A const method of a pure object expression too.
  EXPECT_TRUE(opaqueCallKey(keyInit(Ctx, "m0"), Ctx));
}

TEST(OpaqueKeys, ImpureCallsAndPlainArithmeticAreNot) {
  Parsed P = parse(OpaqueKeysCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_FALSE(opaqueCallKey(keyInit(Ctx, "impure"), Ctx));
  EXPECT_FALSE(opaqueCallKey(keyInit(Ctx, "side"), Ctx));
  EXPECT_FALSE(opaqueCallKey(keyInit(Ctx, "plain"), Ctx));
}

TEST(OpaqueKeys, SideEffectsOtherThanThePureCall) {
  Parsed P = parse(OpaqueKeysCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_FALSE(keyHasSideEffects(keyInit(Ctx, "a0"), Ctx));
  EXPECT_FALSE(keyHasSideEffects(keyInit(Ctx, "m2"), Ctx));
  EXPECT_FALSE(keyHasSideEffects(keyInit(Ctx, "plain"), Ctx));
  EXPECT_TRUE(keyHasSideEffects(keyInit(Ctx, "side"), Ctx));
  EXPECT_TRUE(keyHasSideEffects(keyInit(Ctx, "impure"), Ctx));
}

TEST(OpaqueKeys, ConstantArgumentsDoNotSplitAGroup) {
  Parsed P = parse(OpaqueKeysCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_EQ(keyProfileHash(Ctx, "a0"), keyProfileHash(Ctx, "a1"));
  EXPECT_EQ(keyProfileHash(Ctx, "m0"), keyProfileHash(Ctx, "m2"));
  EXPECT_NE(keyProfileHash(Ctx, "a0"), keyProfileHash(Ctx, "b0"));
  EXPECT_NE(keyProfileHash(Ctx, "a0"), keyProfileHash(Ctx, "m0"));
  // Such keys are grouped, but differ: the group needs a uniform key.
  EXPECT_TRUE(keysDiffer(keyInit(Ctx, "a0"), keyInit(Ctx, "a1"), Ctx));
  EXPECT_FALSE(keysDiffer(keyInit(Ctx, "a0"), keyInit(Ctx, "a0"), Ctx));
}

} // namespace
