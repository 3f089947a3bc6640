//===- EffectsTest.cpp - what a statement or a call may read and write ----===//
//
// The effects analysis is conservative by construction: each judgement is
// checked on code that does what is asked and on code that does not, with
// lambdas, captures, references returned by methods, aliased arrays and
// library functions.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Effects.h"
#include "Analysis/VarWrites.h"
#include "TestAST.h"
#include "clang/AST/ExprCXX.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const EffectsCode = R"cu(
    __device__ float *gbuf;
    struct Bufs { float *a; };
    struct P {
      int k;
      float *buf;
      __device__ int &key() { return k; }
      __device__ int get() const { return k; }
    };
    __device__ int &keyOf(P &p) { return p.k; }
    __device__ float viaGlobal(int i) { return gbuf[i]; }
    __device__ float viaStruct(Bufs s, int i) { return s.a[i]; }
    __device__ float viaParam(const float *p, int i) { return p[i]; }
    __device__ void bump(int *p) { *p += 1; }
    __device__ void keep(int *p) { gbuf = (float *)p; }
    __device__ int fact(int n) { return n < 2 ? 1 : n * fact(n - 1); }
    __device__ void user(int *p);

    __global__ void lambdas(float *g, const int *ids, int n) {
      int id = ids[0];
      float v = 1.f;
      auto rekey = [&] { id = ids[1]; };
      auto peek = [&] { return g[id]; };
      auto scale = [&](float s) { return s * v; };
      rekey();
      g[0] = peek() + scale(2.f);
    }

    __global__ void aliases(float *g, const int *ids) {
      int k[2] = {ids[0], 0};
      int *pk = k;
      int m[2] = {ids[1], 0};
      int c = m[0];
      int e = ids[2];
      bump(&e);
      int f = ids[3];
      keep(&f);
      P pv{ids[4], g};
      pv.key() += 1;
      P qv{ids[5], g};
      int r = qv.get();
      pk[0] = 40;
      atomicAdd(&g[k[0] + c + e + f + pv.k + qv.k + r], 1.f);
    })cu";

const clang::CallExpr *callTo(clang::ASTContext &Ctx, llvm::StringRef Caller,
                              llvm::StringRef Callee) {
  const clang::CallExpr *Found = nullptr;
  for (const clang::Stmt *S : bodyOf(Ctx, Caller))
    forEachStmt(S, [&](const clang::Stmt *X) {
      const auto *Call = llvm::dyn_cast<clang::CallExpr>(X);
      const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
      if (FD && FD->getIdentifier() && FD->getName() == Callee)
        Found = Call;
      return !Found;
    });
  return Found;
}

/// The call operator of the lambda stored in local \p Name.
const clang::FunctionDecl *lambdaOf(clang::ASTContext &Ctx,
                                    llvm::StringRef Name) {
  const clang::VarDecl *V = variable(Ctx, Name);
  if (!V || !V->getInit())
    return nullptr;
  const auto *L = llvm::dyn_cast<clang::LambdaExpr>(
      V->getInit()->IgnoreImplicit());
  return L ? L->getCallOperator() : nullptr;
}

TEST(Effects, LambdasNameTheirCaptures) {
  Parsed P = parse(EffectsCode);
  clang::ASTContext &Ctx = P.context();
  const clang::VarDecl *Id = variable(Ctx, "id");
  const clang::VarDecl *G = variable(Ctx, "g");
  CallEffects Rekey = effectsOfCallee(lambdaOf(Ctx, "rekey"));
  EXPECT_TRUE(Rekey.OuterWrites.contains(Id));
  EXPECT_FALSE(Rekey.isPure());
  CallEffects Peek = effectsOfCallee(lambdaOf(Ctx, "peek"));
  EXPECT_TRUE(Peek.isPure());
  EXPECT_TRUE(Peek.OuterReads.contains(G));
  EXPECT_TRUE(Peek.ReadsBeyondParameters);
  EXPECT_FALSE(Peek.readsOnlyArguments());
  CallEffects Scale = effectsOfCallee(lambdaOf(Ctx, "scale"));
  EXPECT_TRUE(Scale.isPure());
  EXPECT_FALSE(Scale.readsOnlyArguments()); // it reads the captured v
  // The call `rekey()` changes id wherever it stands; `peek()` does not.
  const clang::Stmt *Body = function(Ctx, "lambdas")->getBody();
  const clang::Stmt *W = findWrite(Body, Id, /*Through=*/false);
  ASSERT_TRUE(W);
  EXPECT_TRUE(llvm::isa<clang::CallExpr>(W) ||
              llvm::isa<clang::BinaryOperator>(W));
}

TEST(Effects, ReadsBeyondParameters) {
  Parsed P = parse(EffectsCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_TRUE(effectsOfCallee(function(Ctx, "viaGlobal")).ReadsBeyondParameters);
  EXPECT_TRUE(effectsOfCallee(function(Ctx, "viaStruct")).ReadsBeyondParameters);
  CallEffects Param = effectsOfCallee(function(Ctx, "viaParam"));
  EXPECT_TRUE(Param.ReadsMemory);
  EXPECT_FALSE(Param.ReadsBeyondParameters);
  EXPECT_TRUE(Param.isPure());
}

TEST(Effects, WhereLoadsThroughPointersLead) {
  Parsed P = parse(R"cu(
    struct Table { const float *values; };
    __device__ float elementOf(const float *p, int i) { return p[i]; }
    // A pointer loaded from a parameter's memory points elsewhere.
    __device__ float rowElement(const float *const *rows, int i) {
      return rows[i][0];
    }
    // An element of a pointer to arrays stays in the parameter's memory.
    __device__ float matrixElement(const float (*m)[4], int i) {
      return m[i][1] + *&m[i][2];
    }
    // What a callee reads through a pointer, its caller reads through what
    // it passed.
    __device__ float viaLoadedPointer(const Table *t, int i) {
      return elementOf(t->values, i);
    }
    __device__ float viaOffset(const float *p, int i) {
      return elementOf(p + 1, i) + elementOf(&p[2], i);
    }
    __device__ float viaOwnArray(float x, int i) {
      float local[2] = {x, x};
      return elementOf(local, i) + elementOf(&x, 0);
    }
    __shared__ float s_tile[32];
    __device__ float sharedElement(int i) { return s_tile[i]; }
    __device__ float viaSharedArray(int i) { return elementOf(s_tile, i); })cu");
  clang::ASTContext &Ctx = P.context();
  auto Beyond = [&](llvm::StringRef Name) {
    return effectsOfCallee(function(Ctx, Name)).ReadsBeyondParameters;
  };
  EXPECT_FALSE(Beyond("elementOf"));
  EXPECT_TRUE(Beyond("rowElement"));
  EXPECT_FALSE(Beyond("matrixElement"));
  EXPECT_TRUE(Beyond("viaLoadedPointer"));
  EXPECT_FALSE(Beyond("viaOffset"));
  EXPECT_FALSE(Beyond("viaOwnArray"));
  EXPECT_TRUE(Beyond("viaSharedArray"));
  // Shared memory is no global destination, but the block's threads may
  // change it.
  CallEffects Shared = effectsOfCallee(function(Ctx, "sharedElement"));
  EXPECT_FALSE(Shared.ReadsBeyondParameters);
  EXPECT_TRUE(Shared.ReadsShared);
  EXPECT_FALSE(Shared.readsOnlyWhatArgumentsReach());
  CallEffects Element = effectsOfCallee(function(Ctx, "elementOf"));
  EXPECT_FALSE(Element.ReadsShared);
  EXPECT_TRUE(Element.readsOnlyWhatArgumentsReach());
  EXPECT_FALSE(Element.readsOnlyArguments());
}

TEST(Effects, UnknownCodeIsAnything) {
  Parsed P = parse(EffectsCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_TRUE(effectsOfCallee(function(Ctx, "user")).Opaque);
  EXPECT_TRUE(effectsOfCallee(nullptr).Opaque);
  // A recursive function is summarised, not given up on.
  CallEffects Fact = effectsOfCallee(function(Ctx, "fact"));
  EXPECT_FALSE(Fact.Opaque);
  // CUDA's atomics reach only what their argument points to.
  const clang::CallExpr *Atomic = callTo(Ctx, "aliases", "atomicAdd");
  ASSERT_TRUE(Atomic);
  CallEffects A = effectsOfCall(Atomic);
  EXPECT_FALSE(A.Opaque);
  EXPECT_TRUE(A.WritesMemory);
  EXPECT_TRUE(A.WritesBeyondParameters.empty());
}

TEST(Effects, Escapes) {
  Parsed P = parse(EffectsCode);
  clang::ASTContext &Ctx = P.context();
  struct Expected {
    const char *Name;
    bool Escapes;
  };
  for (const Expected &W : {
           Expected{"k", true},    // decays into pk
           Expected{"m", false},   // only indexed
           Expected{"c", false},   // never addressed
           Expected{"e", false},   // bump only dereferences its pointer
           Expected{"f", true},    // keep stores it in a global
           Expected{"pv", true},   // key() returns a reference into it
           Expected{"qv", false},  // a const method returning a value
           Expected{"id", true},   // captured by a lambda that changes it
           Expected{"v", false},   // captured by one that only reads it
           Expected{"gbuf", true}, // a global: anything may reach it
       }) {
    const clang::VarDecl *V = variable(Ctx, W.Name);
    ASSERT_TRUE(V) << W.Name;
    EXPECT_EQ(escapes(V), W.Escapes) << W.Name;
  }
}

TEST(Effects, WritesThroughAliases) {
  Parsed P = parse(EffectsCode);
  clang::ASTContext &Ctx = P.context();
  const clang::Stmt *Body = function(Ctx, "aliases")->getBody();
  // `pk[0] = 40` changes k; `pv.key() += 1` changes pv; the float atomic
  // changes no int (C++'s aliasing rules).
  EXPECT_TRUE(findWrite(Body, variable(Ctx, "k"), /*Through=*/true));
  EXPECT_TRUE(findWrite(Body, variable(Ctx, "pv"), /*Through=*/true));
  EXPECT_FALSE(findWrite(Body, variable(Ctx, "c"), /*Through=*/true));
  EXPECT_FALSE(findWrite(Body, variable(Ctx, "r"), /*Through=*/true));
  const clang::CallExpr *Atomic = callTo(Ctx, "aliases", "atomicAdd");
  ASSERT_TRUE(Atomic);
  EXPECT_FALSE(callMayWrite(Atomic, variable(Ctx, "k")));
  EXPECT_FALSE(callMayWrite(Atomic, variable(Ctx, "pv")));
}

TEST(Effects, ForEachStmtSeesTemplateArguments) {
  Parsed P = parse(R"cu(
    template <int K> __device__ int scaled(int v) { return v * K; }
    __global__ void k(int *out) {
      constexpr int N = 3;
      static_assert(N == 3, "three");
      out[0] = scaled<N>(1);
    })cu");
  clang::ASTContext &Ctx = P.context();
  const clang::VarDecl *N = variable(Ctx, "N");
  ASSERT_TRUE(N);
  std::vector<const clang::Stmt *> Body = bodyOf(Ctx, "k");
  ASSERT_EQ(Body.size(), 3u);
  llvm::DenseSet<const clang::VarDecl *> Vars = {N};
  EXPECT_TRUE(refersToAny(Body[1], Vars)); // static_assert
  EXPECT_TRUE(refersToAny(Body[2], Vars)); // a template argument
}

} // namespace
