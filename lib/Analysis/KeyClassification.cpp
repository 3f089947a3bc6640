//===- KeyClassification.cpp - How a key varies across lanes --------------===//
//
// Uniform keys reduce the whole warp at once (the butterfly), distinct keys
// gain nothing from batching, and the others group lanes by match-any.
//
//===----------------------------------------------------------------------===//

#include "Analysis/AstQueries.h"
#include "Analysis/Collectives.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distwar {

bool UniformityAnalysis::distinctPerLane(const Expr *E, unsigned Depth) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenCasts();
  if (const VarDecl *BV = builtinVar(E)) {
    const Expr *X = E;
    if (const auto *POE = dyn_cast<PseudoObjectExpr>(X))
      X = POE->getSyntacticForm()->IgnoreParenImpCasts();
    if (const auto *MP = dyn_cast<MSPropertyRefExpr>(X))
      return BV->getName() == "threadIdx" &&
             MP->getPropertyDecl()->getName() == "x";
    if (const auto *ME = dyn_cast<MemberExpr>(X))
      return BV->getName() == "threadIdx" &&
             ME->getMemberDecl()->getName() == "x";
    return false;
  }
  // thread_rank() of a thread block or tile: a method, static for a block.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *M = Call->getDirectCallee();
    return M && inCooperativeGroups(M) && M->getIdentifier() &&
           M->getName() == "thread_rank";
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->isLocalVarDecl() || !V->getInit() ||
        findWrite(F->getBody(), V, /*Through=*/true))
      return false;
    return distinctPerLane(V->getInit(), Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
      return (distinctPerLane(BO->getLHS(), Depth + 1) &&
              isUniform(BO->getRHS())) ||
             (distinctPerLane(BO->getRHS(), Depth + 1) &&
              isUniform(BO->getLHS()));
    case BO_Sub:
      return distinctPerLane(BO->getLHS(), Depth + 1) &&
             isUniform(BO->getRHS());
    case BO_Mul: {
      auto NonZero = [&](const Expr *X) {
        Expr::EvalResult R;
        return !X->isValueDependent() && X->EvaluateAsInt(R, Ctx) &&
               R.Val.getInt() != 0;
      };
      return (distinctPerLane(BO->getLHS(), Depth + 1) &&
              NonZero(BO->getRHS())) ||
             (distinctPerLane(BO->getRHS(), Depth + 1) &&
              NonZero(BO->getLHS()));
    }
    default:
      return false;
    }
  }
  return false;
}

/// The indices of `&acc[a][b]...` (overloaded subscripts), or an empty list.
static llvm::SmallVector<const Expr *, 4> accessorIndices(const Expr *Key) {
  llvm::SmallVector<const Expr *, 4> Indices;
  llvm::SmallVector<const CXXOperatorCallExpr *, 4> Ops;
  const auto *AddrOf = dyn_cast<UnaryOperator>(Key->IgnoreParenImpCasts());
  if (AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
      subscriptChain(AddrOf->getSubExpr(), Ops))
    for (const CXXOperatorCallExpr *Op : Ops)
      Indices.push_back(Op->getArg(1));
  return Indices;
}

KeyUniformity UniformityAnalysis::classifyKey(const Expr *Key) {
  // An accessor's element (the accessor is the same in every lane): as
  // uniform as its indices together, distinct where one index is.
  if (auto Indices = accessorIndices(Key); !Indices.empty()) {
    unsigned Uniform = 0, Likely = 0, Distinct = 0;
    for (const Expr *I : Indices) {
      KeyUniformity K = classifyKey(I);
      Uniform += K == KeyUniformity::Uniform;
      Likely += K == KeyUniformity::Uniform || K == KeyUniformity::LikelyUniform;
      Distinct += K == KeyUniformity::Distinct;
    }
    if (Uniform == Indices.size())
      return KeyUniformity::Uniform;
    if (Likely == Indices.size())
      return KeyUniformity::LikelyUniform;
    if (Distinct)
      return KeyUniformity::Distinct;
    return KeyUniformity::Varying;
  }
  if (isUniform(Key))
    return KeyUniformity::Uniform;
  if (isUniform(Key, /*TrustLoads=*/true))
    return KeyUniformity::LikelyUniform;
  if (distinctPerLane(Key, 0))
    return KeyUniformity::Distinct;
  return KeyUniformity::Varying;
}

} // namespace distwar
