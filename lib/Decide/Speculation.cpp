//===- Speculation.cpp - statements safe to run in skipped lanes ----------===//

#include "Decide/Speculation.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "Decide/Divergence.h"
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

/// Where statements between guard points may run unguarded (Speculation.h;
/// FlagPlan::AnyFromStart...Unguarded). A guard point's stretch is the
/// statements after it up to and including the next converted continue's
/// statement; the stretch that reaches the holder never qualifies. Per-lane
/// guards closed before the warp-uniform branch must not hold declarations
/// used after them.
void planSpeculation(ASTContext &Ctx, const Stmt *Loop,
                     llvm::ArrayRef<Stmt *> Stmts,
                     llvm::ArrayRef<size_t> ContinueHolders, size_t H,
                     size_t GuardBegin, FlagPlan &Plan) {
  SpeculationCheck Check(Ctx, Loop);
  auto Speculatable = [&](size_t Begin, size_t End) { // [Begin, End]
    for (size_t I = Begin; I <= End; ++I)
      if (!Check.statement(Stmts[I]))
        return false;
    return true;
  };
  llvm::SmallVector<size_t, 4> Points(ContinueHolders.begin(),
                                      ContinueHolders.end());
  llvm::erase_if(Points, [&](size_t K) { return K >= H; });
  auto StretchEnd = [&](size_t I) -> std::optional<size_t> { // point index
    if (I + 1 < Points.size())
      return Points[I + 1];
    return std::nullopt; // reaches the holder
  };
  unsigned Open = 0;
  bool InAny = false;
  if (Plan.GuardFromStart) {
    if (!Points.empty() && Speculatable(0, Points.front())) {
      Plan.AnyFromStart = true;
      InAny = true;
    } else {
      Open = 1;
    }
  }
  for (size_t I = 0; I < Points.size(); ++I) {
    std::optional<size_t> End = StretchEnd(I);
    bool Spec = End && Speculatable(Points[I] + 1, *End);
    if (Spec && !InAny && Open) {
      // Closing the per-lane guards ends their declarations' scope.
      llvm::DenseSet<const VarDecl *> Declared;
      for (size_t J = GuardBegin; J <= Points[I]; ++J)
        if (const auto *DS = dyn_cast<DeclStmt>(Stmts[J]))
          for (const Decl *D : DS->decls())
            if (const auto *V = dyn_cast<VarDecl>(D))
              Declared.insert(V);
      for (size_t J = Points[I] + 1; J < Stmts.size() && Spec; ++J)
        Spec = !refersToAny(Stmts[J], Declared);
    }
    if (!Spec) {
      ++Open;
      continue;
    }
    if (InAny) {
      Plan.Unguarded.push_back(Stmts[Points[I]]);
    } else {
      Plan.AnyAfter = Stmts[Points[I]];
      Plan.CloseBeforeAny = Open;
      Open = 0;
      InAny = true;
    }
  }
  if (InAny)
    Plan.GuardsOpen = Open + 1;
}

} // namespace distwar
