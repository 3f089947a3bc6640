//===- Hoisting.cpp - declarations moved out of a guard -------------------===//

#include "Decide/Hoisting.h"
#include "Analysis/Effects.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

bool hoistable(const VarDecl *V) {
  QualType T = V->getType();
  if (V->isStaticLocal() || V->hasAttr<CUDASharedAttr>() ||
      T->isReferenceType() || T->isArrayType() || T->isDependentType() ||
      T->getContainedAutoType())
    return false;
  if (V->getInit() && V->getInitStyle() != VarDecl::CInit)
    return false;
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    return RD->hasTrivialDefaultConstructor() && RD->hasTrivialCopyAssignment();
  return T->isScalarType();
}

bool hoistableWhole(const DeclStmt *DS, ASTContext &Ctx) {
  return llvm::all_of(DS->decls(), [&](const Decl *D) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || V->isStaticLocal() || !V->getInit() ||
        V->getType()->isDependentType() || !V->getType()->isScalarType() ||
        !(V->isConstexpr() || V->getType().isConstQualified()) ||
        V->getInit()->isValueDependent() ||
        !V->getInit()->isConstantInitializer(Ctx, /*ForRef=*/false))
      return false;
    return forEachStmt(V->getInit(), [](const Stmt *S) {
      const auto *DRE = dyn_cast<DeclRefExpr>(S);
      const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      return !Var || !Var->isLocalVarDeclOrParm();
    });
  });
}

/// True when \p S names a declaration other than \p V that has V's name.
static bool namesOtherWithNameOf(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl() != V &&
        DRE->getDecl()->getDeclName() == V->getDeclName())
      return true;
  for (const Stmt *Child : S->children())
    if (namesOtherWithNameOf(Child, V))
      return true;
  return false;
}

/// A hoisted declaration is visible from the body's start: no statement
/// before its original place may name another variable of the same name
/// (it would name the hoisted one instead).
Reason checkHoistedNames(llvm::ArrayRef<Stmt *> Stmts,
                         llvm::ArrayRef<const DeclStmt *> Hoisted) {
  for (const DeclStmt *DS : Hoisted) {
    size_t At = llvm::find(Stmts, DS) - Stmts.begin();
    assert(At < Stmts.size() && "a hoisted declaration is a body statement");
    for (const Decl *D : DS->decls())
      for (size_t I = 0; I < At; ++I)
        if (namesOtherWithNameOf(Stmts[I], cast<VarDecl>(D)))
          return Reason::NameShadowed;
  }
  return Reason::None;
}

} // namespace distwar
