//===- LoopCounter.cpp - a loop counter with proven bounds ----------------===//

#include "Analysis/LoopCounter.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distwar {
namespace {

/// A constant upper bound (exclusive) of the values \p Bound takes: the
/// constant itself, or the smallest constant argument of `min(a, b)`.
std::optional<llvm::APSInt> exclusiveBound(const Expr *Bound,
                                           const ASTContext &Ctx) {
  Bound = Bound->IgnoreParenImpCasts();
  if (Bound->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (Bound->EvaluateAsInt(R, Ctx))
    return R.Val.getInt();
  const auto *Call = dyn_cast<CallExpr>(Bound);
  llvm::StringRef Name = Call ? calleeName(Call) : "";
  if (!Call || Call->getNumArgs() != 2 || (Name != "min" && Name != "umin"))
    return std::nullopt;
  std::optional<llvm::APSInt> Best;
  for (const Expr *Arg : Call->arguments()) {
    Expr::EvalResult A;
    Arg = Arg->IgnoreParenImpCasts();
    if (Arg->isValueDependent() || !Arg->EvaluateAsInt(A, Ctx))
      continue;
    llvm::APSInt V = A.Val.getInt();
    if (!Best || llvm::APSInt::compareValues(V, *Best) < 0)
      Best = V;
  }
  return Best;
}

} // namespace

std::optional<llvm::APSInt> BoundedCounter::extent(const VarDecl *Array,
                                                   const ASTContext &Ctx) {
  const ConstantArrayType *AT = Ctx.getAsConstantArrayType(Array->getType());
  if (!AT)
    return std::nullopt;
  return llvm::APSInt(AT->getSize(), /*isUnsigned=*/true);
}

bool BoundedCounter::indexesWithin(const VarDecl *Array,
                                   const ASTContext &Ctx) const {
  std::optional<llvm::APSInt> Size = extent(Array, Ctx);
  return Size && llvm::APSInt::compareValues(Max, *Size) < 0;
}

std::optional<BoundedCounter> boundedCounter(ASTContext &Ctx,
                                             const Stmt *Loop) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getCond())
    return std::nullopt;
  std::optional<CountingLoop> Counting = matchCountingLoop(For);
  if (!Counting || !Counting->Var->getType()->isIntegerType() ||
      Counting->Var->getType()->isReferenceType())
    return std::nullopt;
  const VarDecl *V = Counting->Var;
  Expr::EvalResult Start;
  if (Counting->Start->isValueDependent() ||
      !Counting->Start->EvaluateAsInt(Start, Ctx) ||
      Start.Val.getInt().isNegative() ||
      findWrite(For->getBody(), V, /*Through=*/true) ||
      findWrite(For->getCond(), V, /*Through=*/true))
    return std::nullopt;
  std::optional<BoundedCounter> Best;
  llvm::SmallVector<const Expr *, 4> Terms;
  flattenAnd(For->getCond(), Terms);
  for (const Expr *T : Terms) {
    const auto *BO = dyn_cast<BinaryOperator>(T->IgnoreParenImpCasts());
    if (!BO || (BO->getOpcode() != BO_LT && BO->getOpcode() != BO_LE) ||
        referencedVar(BO->getLHS()) != V)
      continue;
    std::optional<llvm::APSInt> Bound = exclusiveBound(BO->getRHS(), Ctx);
    if (!Bound)
      continue;
    llvm::APSInt Max = *Bound;
    if (BO->getOpcode() == BO_LT)
      --Max;
    if (!Best || llvm::APSInt::compareValues(Max, Best->Max) < 0)
      Best = BoundedCounter{V, Start.Val.getInt(), Max};
  }
  return Best;
}

} // namespace distwar
