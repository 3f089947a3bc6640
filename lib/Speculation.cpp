//===- Speculation.cpp - statements safe to run in skipped lanes ----------===//

#include "distwar/Speculation.h"
#include "distwar/AtomicSites.h"
#include "distwar/GroupSafety.h"
#include "distwar/Uniformity.h"
#include "distwar/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {
namespace {

const VarDecl *referencedVar(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// The name of the function \p Call calls, resolved or not (template code).
llvm::StringRef calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->getIdentifier() ? FD->getName() : "";
  if (const auto *ULE =
          dyn_cast<UnresolvedLookupExpr>(Call->getCallee()->IgnoreParens()))
    return ULE->getName().isIdentifier()
               ? ULE->getName().getAsIdentifierInfo()->getName()
               : "";
  return "";
}

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

SpeculationCheck::SpeculationCheck(ASTContext &Ctx, const Stmt *Loop)
    : Ctx(Ctx) {
  // for (int j = c0; ... && j < B && ...; ++j) with c0 >= 0, j unwritten in
  // the body: every iteration runs with 0 <= j <= B - 1.
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getCond())
    return;
  std::optional<CountingLoop> Counting = matchCountingLoop(For);
  if (!Counting || !Counting->Var->getType()->isIntegerType() ||
      Counting->Var->getType()->isReferenceType())
    return;
  const VarDecl *V = Counting->Var;
  Expr::EvalResult Start;
  if (Counting->Start->isValueDependent() ||
      !Counting->Start->EvaluateAsInt(Start, Ctx) ||
      Start.Val.getInt().isNegative() ||
      findWrite(For->getBody(), V, /*Through=*/true) ||
      findWrite(For->getCond(), V, /*Through=*/true))
    return;
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
    if (!Counter || llvm::APSInt::compareValues(Max, CounterMax) < 0) {
      Counter = V;
      CounterMax = Max;
    }
  }
}

bool SpeculationCheck::inBoundsSharedRead(const ArraySubscriptExpr *ASE) const {
  const VarDecl *Array = referencedVar(ASE->getBase());
  if (!Counter || !Array || !Array->hasAttr<CUDASharedAttr>() ||
      referencedVar(ASE->getIdx()) != Counter ||
      !isa<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts()))
    return false;
  const ConstantArrayType *AT = Ctx.getAsConstantArrayType(Array->getType());
  if (!AT)
    return false;
  llvm::APSInt Size(AT->getSize(), /*isUnsigned=*/true);
  return llvm::APSInt::compareValues(CounterMax, Size) < 0;
}

bool SpeculationCheck::expression(const Expr *E) const {
  if (!E)
    return true;
  if (E->isTypeDependent())
    return false;
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(D))
      return true;
    const auto *V = dyn_cast<VarDecl>(D);
    // By value only: a reference could alias anything.
    return V && !V->getType()->isReferenceType() &&
           (V->isLocalVarDeclOrParm() || V->isConstexpr());
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return inBoundsSharedRead(ASE);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf ||
        UO->isIncrementDecrementOp())
      return false;
    return expression(UO->getSubExpr());
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->isCommaOp())
      return false;
    return expression(BO->getLHS()) && expression(BO->getRHS());
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return expression(CO->getCond()) && expression(CO->getTrueExpr()) &&
           expression(CO->getFalseExpr());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()) &&
           expression(ME->getBase());
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (isa<CXXDynamicCastExpr>(E) || E->getType()->isReferenceType())
      return false;
    return expression(Cast->getSubExpr());
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (isa<CXXMemberCallExpr, CXXOperatorCallExpr, CUDAKernelCallExpr>(E) ||
        !isKnownMathFunction(Call->getDirectCallee()))
      return false;
    return llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
      return !Arg->getType()->isPointerType() && expression(Arg);
    });
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (!Construct->getConstructor()->isTrivial())
      return false;
    return llvm::all_of(Construct->arguments(),
                        [&](const Expr *Arg) { return expression(Arg); });
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return llvm::all_of(IL->inits(),
                        [&](const Expr *Init) { return expression(Init); });
  if (isa<ParenExpr, MaterializeTemporaryExpr, ExprWithCleanups>(E))
    return llvm::all_of(E->children(), [&](const Stmt *Child) {
      return expression(cast<Expr>(Child));
    });
  return false;
}

bool SpeculationCheck::statement(const Stmt *S) const {
  if (isa<NullStmt>(S))
    return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->isLocalVarDecl() || V->isStaticLocal() ||
          V->hasAttr<CUDASharedAttr>() || V->getType()->isReferenceType() ||
          V->getType()->isArrayType() || V->getType()->isDependentType())
        return false;
      if (const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl())
        if (!RD->isTriviallyCopyable() || !RD->hasTrivialDestructor())
          return false;
      if (!expression(V->getInit()))
        return false;
    }
    return true;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable() || If->getElse() ||
        If->isConstexpr() || If->isConsteval())
      return false;
    const Stmt *Then = If->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
      Then = CS->body_front();
    return isa<ContinueStmt>(Then) && expression(If->getCond());
  }
  return false;
}

} // namespace distwar
