//===- Escapes.cpp - Variables changed other than by their name -----------===//
//
// Whether a local's storage may be reached through a pointer or a reference
// (its address taken, a reference bound to it, a method that may keep
// `this`), and which lvalues may then designate it.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Effects.h"
#include "Analysis/EffectsInternal.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace distwar {

namespace {

/// A handle through which the caller may later change the object: a
/// reference or a pointer to non-const.
bool isMutableHandle(QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  return T->isPointerType() && !T->getPointeeType().isConstQualified();
}

/// Whether \p E reaches its object through a pointer, a reference or a
/// call: such an lvalue may be any object whose address has escaped.
bool isIndirect(const Expr *E) {
  E = E->IgnoreParenCasts();
  // Objects of their own, never a variable's storage.
  if (isa<StringLiteral, PredefinedExpr, CompoundLiteralExpr,
          MaterializeTemporaryExpr>(E))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return !V || V->getType()->isReferenceType();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() || isIndirect(ME->getBase());
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return !ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() ||
           isIndirect(ASE->getBase()->IgnoreParenImpCasts());
  return true;
}

/// Whether the result of \p Call, a reference or a pointer, may lead into
/// \p V: an argument or the object designates V, the body names V (a
/// lambda's capture), or the callee is unknown and V escapes.
bool callMayLeadTo(const CallExpr *Call, const VarDecl *V, bool Through,
                   bool StorageOnly) {
  for (const Expr *Arg : Call->arguments())
    if (Arg->isGLValue() ? mayDesignate(Arg, V, Through, StorageOnly)
                         : (Arg->getType()->isPointerType() &&
                            rootVariable(Arg) == V))
      return true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (mayDesignate(MC->getImplicitObjectArgument(), V, Through, StorageOnly))
      return true;
  CallEffects E = effectsOfCall(Call);
  return E.OuterReads.contains(V) || E.OuterWrites.contains(V) ||
         (escapes(V) && typesMayAlias(Call->getType(), V->getType(),
                                      V->getASTContext()));
}

/// Whether \p Call, a method call or a call of a function taking
/// arguments by mutable handle, lets \p V's storage be reached later: a
/// non-const method of V (which may return or keep `this`), a mutable
/// reference parameter bound to V.
bool callLetsEscape(const CallExpr *Call, const VarDecl *V) {
  // A template's operator on arithmetic or pointer operands is the builtin
  // one: only its `&` takes an address.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && isBuiltinOperatorCall(Op))
    return Op->getOperator() == OO_Amp && Op->getNumArgs() == 1 &&
           storageRoot(Op->getArg(0)) == V;
  const FunctionDecl *FD = Call->getDirectCallee();
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(FD);
  const Expr *Object = nullptr;
  unsigned Shift = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(Call) && M && !M->isStatic() &&
           Call->getNumArgs() > 0) {
    Object = Call->getArg(0);
    Shift = 1;
  }
  if (Object && storageRoot(Object) == V && M && !M->isConst() &&
      isMutableHandle(M->getReturnType()))
    return true;
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (storageRoot(Arg) != V || !Arg->isGLValue())
      continue;
    if (!FD || I - Shift >= FD->getNumParams() ||
        isMutableHandle(FD->getParamDecl(I - Shift)->getType()))
      return true;
  }
  return false;
}

/// Whether pointer parameter \p P of \p FD is only dereferenced (`*p`,
/// `p[i]`, `p->m`): the address it is given goes nowhere else.
bool onlyDereferenced(const ParmVarDecl *P, const FunctionDecl *FD) {
  const Stmt *Body = FD->getBody();
  if (!Body || !P->getType()->isPointerType())
    return false;
  llvm::SmallPtrSet<const Expr *, 8> Dereferenced;
  auto Note = [&](const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        DRE && DRE->getDecl() == P)
      Dereferenced.insert(DRE);
  };
  return forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_Deref)
      Note(UO->getSubExpr());
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
      Note(ASE->getBase());
    else if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
      Note(ME->getBase());
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    return !DRE || DRE->getDecl() != P || Dereferenced.contains(DRE);
  });
}

/// The `&V` arguments of \p Call whose parameter is only dereferenced in
/// the callee's body: the call may change V (a write there), but V's
/// address goes no further.
void noteLocalAddresses(const CallExpr *Call, const VarDecl *V,
                        llvm::SmallPtrSetImpl<const Expr *> &Harmless) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || isa<CXXOperatorCallExpr>(Call))
    return;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
    if (const auto *UO =
            dyn_cast<UnaryOperator>(Call->getArg(I)->IgnoreParenImpCasts());
        UO && UO->getOpcode() == UO_AddrOf &&
        storageRoot(UO->getSubExpr()) == V &&
        onlyDereferenced(Def->getParamDecl(I), Def))
      Harmless.insert(UO);
}

/// The escape points of \p V in \p Body (see escapes()).
bool computeEscapes(const VarDecl *V, const Stmt *Body) {
  llvm::SmallPtrSet<const Expr *, 8> IndexedArrays, Harmless;
  return !forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
      IndexedArrays.insert(ASE->getBase()->IgnoreParens());
    if (const auto *Call = dyn_cast<CallExpr>(S))
      noteLocalAddresses(Call, V, Harmless);
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_AddrOf && !Harmless.contains(UO) &&
        storageRoot(UO->getSubExpr()) == V)
      return false;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
        ICE && ICE->getCastKind() == CK_ArrayToPointerDecay &&
        !IndexedArrays.contains(ICE) && storageRoot(ICE->getSubExpr()) == V)
      return false;
    if (const auto *D = dyn_cast<DeclStmt>(S))
      for (const Decl *X : D->decls())
        if (const auto *VD = dyn_cast<VarDecl>(X);
            VD && isMutableHandle(VD->getType()) &&
            VD->getType()->isReferenceType() && VD->getInit() &&
            storageRoot(VD->getInit()) == V)
          return false;
    // A by-reference capture lets the lambda's body change V, wherever the
    // lambda is called from; a body that only reads V changes nothing.
    if (const auto *L = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
            C.getCapturedVar() == V) {
          CallEffects E = effectsOfCallee(L->getCallOperator());
          if (E.Opaque || E.OuterWrites.contains(V))
            return false;
        }
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && callLetsEscape(Call, V))
      return false;
    return true;
  });
}

} // namespace

bool escapes(const VarDecl *V) {
  if (!V->isLocalVarDecl() && !isa<ParmVarDecl>(V))
    return true;
  if (auto It = escapeCache().find(V); It != escapeCache().end())
    return It->second;
  // A question that comes back to V while it is being answered: escaped.
  static llvm::SmallPtrSet<const VarDecl *, 8> InProgress;
  if (!InProgress.insert(V).second)
    return true;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  bool Result = !Body || computeEscapes(V, Body);
  InProgress.erase(V);
  if (scopeDepth())
    escapeCache()[V] = Result;
  return Result;
}

bool mayDesignate(const Expr *E, const VarDecl *V, bool Through,
                  bool StorageOnly) {
  if (!E)
    return false;
  E = E->IgnoreParenCasts();
  // Only an lvalue names an object (`&x`, `p + 1` name none).
  if (!E->isGLValue())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (DRE->getDecl() == V)
      return true;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return mayDesignate(CO->getTrueExpr(), V, Through, StorageOnly) ||
           mayDesignate(CO->getFalseExpr(), V, Through, StorageOnly);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isCommaOp())
      return mayDesignate(BO->getRHS(), V, Through, StorageOnly);
    if (BO->isAssignmentOp())
      return mayDesignate(BO->getLHS(), V, Through, StorageOnly);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && isBuiltinOperatorCall(Op)) {
    // A template's operator on arithmetic or pointer operands: the builtin
    // one, whose lvalue results are an assignment's left side, a comma's
    // right, or an object reached through a pointer.
    if (Op->isAssignmentOp())
      return mayDesignate(Op->getArg(0), V, Through, StorageOnly);
    if (Op->getOperator() == OO_Comma)
      return mayDesignate(Op->getArg(1), V, Through, StorageOnly);
    if (Op->getOperator() == OO_Star || Op->getOperator() == OO_Subscript)
      return escapes(V) &&
             typesMayAlias(E->getType(), V->getType(), V->getASTContext());
    return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callMayLeadTo(Call, V, Through, StorageOnly);
  if (StorageOnly ? storageRoot(E) == V
                  : Through && rootVariable(E) == V)
    return true;
  // Through a pointer or a reference: any object whose address escaped,
  // that an access of this type may reach.
  return isIndirect(E) && escapes(V) &&
         typesMayAlias(E->getType(), V->getType(), V->getASTContext());
}

} // namespace distwar
