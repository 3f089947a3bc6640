//===- VarWritesTest.cpp - where a variable may change --------------------===//

#include "Analysis/VarWrites.h"
#include "TestAST.h"
#include "clang/AST/Expr.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const VarWritesCode = R"cu(
    struct Holder { int arr[4]; float *ptr; int m; };
    __device__ void takesRef(int &r);
    __device__ void takesConstRef(const int &r);
    __global__ void assign(int x) { int y = 0; y = x; }
    __global__ void increment(int x) { int y = x; y++; }
    __global__ void address(int x) { int y = x; int *p = &y; *p = 1; }
    __global__ void nonConstRef(int x) { int y = x; takesRef(y); }
    __global__ void constRef(int x) { int y = x; takesConstRef(y); }
    __global__ void readsOnly(int x, float *g) { int y = x; g[y] = y; }
    __global__ void throughPointer(float *g) { g[0] = 1.f; }
    __global__ void members(Holder h, float v) {
      h.ptr[0] = v;
      h.arr[1] = 2;
    }
    __global__ void pointerMemberOnly(Holder h, float v) { h.ptr[0] = v; }
    __global__ void loads(const float *p, Holder h, int i) {
      float a = p[i];
      float b = *p;
      int c = h.m;
      float d = h.ptr[i];
    })cu";

/// The one variable named \p Name of function \p Fn.
const clang::VarDecl *localOf(clang::ASTContext &Ctx, llvm::StringRef Fn,
                              llvm::StringRef Name) {
  const clang::FunctionDecl *F = function(Ctx, Fn);
  if (!F)
    return nullptr;
  for (const clang::ParmVarDecl *P : F->parameters())
    if (P->getName() == Name)
      return P;
  for (const clang::Stmt *S : bodyOf(Ctx, Fn))
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
            V && V->getName() == Name)
          return V;
  ADD_FAILURE() << "no variable " << Name.str() << " in " << Fn.str();
  return nullptr;
}

/// Whether \p Fn's body writes its variable \p Name.
bool bodyWrites(clang::ASTContext &Ctx, llvm::StringRef Fn,
                llvm::StringRef Name, bool Through) {
  const clang::FunctionDecl *F = function(Ctx, Fn);
  return F && findWrite(F->getBody(), localOf(Ctx, Fn, Name), Through);
}

TEST(VarWrites, FindWriteSeesEveryWayToChangeAVariable) {
  Parsed P = parse(VarWritesCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_TRUE(bodyWrites(Ctx, "assign", "y", false));
  EXPECT_TRUE(bodyWrites(Ctx, "increment", "y", false));
  EXPECT_TRUE(bodyWrites(Ctx, "address", "y", false));
  EXPECT_TRUE(bodyWrites(Ctx, "nonConstRef", "y", false));
  EXPECT_FALSE(bodyWrites(Ctx, "constRef", "y", false));
  EXPECT_FALSE(bodyWrites(Ctx, "readsOnly", "y", false));
  // A store through a pointer changes what it points to, not the pointer.
  EXPECT_FALSE(bodyWrites(Ctx, "throughPointer", "g", false));
  EXPECT_TRUE(bodyWrites(Ctx, "throughPointer", "g", true));
}

TEST(VarWrites, StorageWritesLeavePointerMembersOut) {
  Parsed P = parse(VarWritesCode);
  clang::ASTContext &Ctx = P.context();
  const clang::FunctionDecl *Members = function(Ctx, "members");
  const clang::Stmt *W =
      findStorageWrite(Members->getBody(), localOf(Ctx, "members", "h"));
  ASSERT_TRUE(W);
  // The member array's element, not the store through the pointer member.
  EXPECT_EQ(offsetOf(Ctx, W->getBeginLoc()),
            P.AST->getSourceManager().getFileOffset(
                bodyOf(Ctx, "members")[1]->getBeginLoc()));
  const clang::FunctionDecl *PtrOnly = function(Ctx, "pointerMemberOnly");
  EXPECT_FALSE(findStorageWrite(PtrOnly->getBody(),
                                localOf(Ctx, "pointerMemberOnly", "h")));
}

TEST(VarWrites, RootsOfLvalues) {
  Parsed P = parse(VarWritesCode);
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::Stmt *> Body = bodyOf(Ctx, "members");
  const auto *PtrStore = llvm::cast<clang::BinaryOperator>(Body[0]);
  const auto *ArrStore = llvm::cast<clang::BinaryOperator>(Body[1]);
  const clang::VarDecl *H = localOf(Ctx, "members", "h");
  // h.ptr[0]: indexes into h, but its storage is elsewhere.
  EXPECT_EQ(rootVariable(PtrStore->getLHS()), H);
  EXPECT_EQ(storageRoot(PtrStore->getLHS()), nullptr);
  EXPECT_EQ(storageRoot(ArrStore->getLHS()), H);
  EXPECT_EQ(referencedVar(PtrStore->getRHS()), localOf(Ctx, "members", "v"));
  EXPECT_EQ(referencedVar(ArrStore->getRHS()), nullptr); // a literal
}

TEST(VarWrites, CollectAndReferToVariables) {
  Parsed P = parse(VarWritesCode);
  clang::ASTContext &Ctx = P.context();
  const clang::Stmt *Store = bodyOf(Ctx, "readsOnly")[1]; // g[y] = y
  llvm::SmallVector<const clang::VarDecl *, 4> Vars;
  collectVars(Store, Vars);
  const clang::VarDecl *G = localOf(Ctx, "readsOnly", "g");
  const clang::VarDecl *Y = localOf(Ctx, "readsOnly", "y");
  EXPECT_EQ(Vars, (llvm::SmallVector<const clang::VarDecl *, 4>{G, Y, Y}));
  llvm::DenseSet<const clang::VarDecl *> OnlyY{Y};
  EXPECT_TRUE(refersToAny(Store, OnlyY));
  llvm::DenseSet<const clang::VarDecl *> OnlyX{localOf(Ctx, "readsOnly", "x")};
  EXPECT_FALSE(refersToAny(Store, OnlyX));
  EXPECT_FALSE(refersToAny(nullptr, OnlyY));
}

TEST(VarWrites, CollectedWritesCarryTheirValues) {
  Parsed P = parse(R"cu(
    __global__ void k(const uint2 *__restrict__ spans, int n) {
      uint2 span;
      span = spans[blockIdx.x];
      span.y = 0;
      int left = n;
      left -= 4;
      ++left;
      float scale = 1.f;
      float *alias = &scale;
    })cu");
  clang::ASTContext &Ctx = P.context();
  const clang::Stmt *Body = function(Ctx, "k")->getBody();
  auto WritesOf = [&](llvm::StringRef Name) {
    llvm::SmallVector<VarWrite, 4> Out;
    collectWrites(Body, localOf(Ctx, "k", Name), Out);
    return Out;
  };
  // The struct assigned whole takes the loaded value; its member's store
  // is a partial write.
  llvm::SmallVector<VarWrite, 4> Span = WritesOf("span");
  ASSERT_EQ(Span.size(), 2u);
  EXPECT_EQ(Span[0].At, bodyOf(Ctx, "k")[1]);
  ASSERT_TRUE(Span[0].Value);
  EXPECT_TRUE(
      llvm::isa<clang::ArraySubscriptExpr>(Span[0].Value->IgnoreImpCasts()));
  EXPECT_EQ(Span[1].Value, nullptr);
  EXPECT_FALSE(Span[1].SelfStep);
  llvm::SmallVector<VarWrite, 4> Left = WritesOf("left");
  ASSERT_EQ(Left.size(), 2u);
  ASSERT_TRUE(Left[0].Value); // the 4 of `-= 4`
  EXPECT_TRUE(llvm::isa<clang::IntegerLiteral>(Left[0].Value));
  EXPECT_TRUE(Left[1].SelfStep);
  // An address taken: whatever is stored through it later.
  llvm::SmallVector<VarWrite, 4> Scale = WritesOf("scale");
  ASSERT_EQ(Scale.size(), 1u);
  EXPECT_EQ(Scale[0].Value, nullptr);
  EXPECT_FALSE(Scale[0].SelfStep);
}

TEST(VarWrites, LoadedPointers) {
  Parsed P = parse(VarWritesCode);
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::Stmt *> Body = bodyOf(Ctx, "loads");
  auto InitOf = [&](size_t I) -> const clang::Expr * {
    const auto *DS = llvm::cast<clang::DeclStmt>(Body[I]);
    return llvm::cast<clang::VarDecl>(DS->getSingleDecl())
        ->getInit()
        ->IgnoreImpCasts();
  };
  const clang::VarDecl *Ptr = localOf(Ctx, "loads", "p");
  ASSERT_TRUE(loadedPointer(InitOf(0)));
  EXPECT_EQ(referencedVar(loadedPointer(InitOf(0))), Ptr);
  ASSERT_TRUE(loadedPointer(InitOf(1)));
  EXPECT_EQ(referencedVar(loadedPointer(InitOf(1))), Ptr);
  EXPECT_EQ(loadedPointer(InitOf(2)), nullptr); // h.m: no pointer
  ASSERT_TRUE(loadedPointer(InitOf(3)));
  EXPECT_EQ(rootVariable(loadedPointer(InitOf(3))), localOf(Ctx, "loads", "h"));
}

} // namespace
