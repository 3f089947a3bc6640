//===- ObjectStorage.cpp - stores into an object's own members ------------===//

#include "Analysis/ObjectStorage.h"
#include "Analysis/Effects.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace distwar {

const Expr *callObject(const CallExpr *Call) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    // `p->f()` acts on what p points to, which is no variable's storage.
    const Expr *Object = MC->getImplicitObjectArgument();
    return !Object->getType()->isPointerType() ||
                   isa<CXXThisExpr>(Object->IgnoreParenImpCasts())
               ? Object
               : nullptr;
  }
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (isa<CXXOperatorCallExpr>(Call) && M && !M->isStatic() &&
      Call->getNumArgs() > 0)
    return Call->getArg(0);
  return nullptr;
}

/// `this` or `*this`.
static bool isThisObject(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(E);
}

bool isOwnObjectStorage(const Expr *E, const FunctionDecl *Method) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Method);
  // A lambda's `this` is the enclosing method's object, not the closure.
  if (!M || M->isStatic() || M->getParent()->isLambda())
    return false;
  E = E->IgnoreParens();
  if (isThisObject(E))
    return true;
  while (true) {
    E = E->IgnoreParenCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD || FD->getType()->isReferenceType())
        return false;
      if (isThisObject(ME->getBase()))
        return ME->isArrow() ||
               isa<UnaryOperator>(ME->getBase()->IgnoreParenImpCasts());
      if (ME->isArrow())
        return false;
      E = ME->getBase();
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
               ASE && ASE->getBase()->IgnoreParenImpCasts()->getType()
                          ->isArrayType()) {
      E = ASE->getBase()->IgnoreParenImpCasts();
    } else {
      return false;
    }
  }
}

/// Whether the returned lvalue \p V is own storage of \p Def's object,
/// either arm of a conditional included.
static bool isOwnReturn(const Expr *V, const FunctionDecl *Def) {
  V = V->IgnoreParens();
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(V))
    return isOwnReturn(CO->getTrueExpr(), Def) &&
           isOwnReturn(CO->getFalseExpr(), Def);
  return isOwnObjectStorage(V, Def);
}

bool returnsOwnStorage(const CXXMethodDecl *M) {
  const FunctionDecl *Def = nullptr;
  if (!M || !M->getReturnType()->isReferenceType() || !M->hasBody(Def) ||
      !Def)
    return false;
  bool Any = false;
  bool Ok = forEachStmt(Def->getBody(), [&](const Stmt *S) {
    const auto *R = dyn_cast<ReturnStmt>(S);
    if (!R)
      return true;
    Any = true;
    return R->getRetValue() && isOwnReturn(R->getRetValue(), Def);
  });
  return Ok && Any;
}

const VarDecl *objectStorageRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V && !V->getType()->isReferenceType() ? V : nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD || FD->getType()->isReferenceType())
        return nullptr;
      E = ME->getBase();
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
               ASE && ASE->getBase()->IgnoreParenImpCasts()->getType()
                          ->isArrayType()) {
      E = ASE->getBase()->IgnoreParenImpCasts();
    } else if (const auto *Call = dyn_cast<CallExpr>(E);
               Call && returnsOwnStorage(dyn_cast_or_null<CXXMethodDecl>(
                           Call->getDirectCallee()))) {
      E = callObject(Call);
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

} // namespace distwar
