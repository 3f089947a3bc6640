//===- Speculation.cpp - statements safe to run in skipped lanes ----------===//

#include "distwar/Speculation.h"
#include "distwar/GroupSafety.h"
#include "distwar/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

SpeculationCheck::SpeculationCheck(ASTContext &Ctx, const Stmt *Loop)
    : Ctx(Ctx), Counter(boundedCounter(Ctx, Loop)) {}

bool SpeculationCheck::inBoundsSharedRead(const ArraySubscriptExpr *ASE) const {
  const VarDecl *Array = referencedVar(ASE->getBase());
  return Counter && Array && Array->hasAttr<CUDASharedAttr>() &&
         isa<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts()) &&
         referencedVar(ASE->getIdx()) == Counter->Var &&
         Counter->indexesWithin(Array, Ctx);
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
