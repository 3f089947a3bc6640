//===- UniformBuffers.cpp - Buffers the same in every lane ----------------===//

#include "Find/UniformBuffers.h"
#include "Analysis/AstQueries.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distwar {

namespace {

/// True when \p S assigns or increments `v.field` (or takes its address).
bool writesMember(const Stmt *S, const VarDecl *V, const FieldDecl *Field) {
  if (!S)
    return false;
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
    Target = UO->getSubExpr();
  if (const auto *ME = Target
                           ? dyn_cast<MemberExpr>(Target->IgnoreParenImpCasts())
                           : nullptr)
    if (ME->getMemberDecl() == Field && refersTo(ME->getBase(), V))
      return true;
  for (const Stmt *Child : S->children())
    if (writesMember(Child, V, Field))
      return true;
  return false;
}

/// Whether the declaration \p D holds device code that may change \p V.
bool declWrites(const Decl *D, const VarDecl *V) {
  // Host code runs between launches: only device code can change the
  // pointer while a kernel uses it.
  // A system header's function does not name the user's global; what of
  // the user's it calls is a declaration of its own here.
  const SourceManager &SM = D->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
    return false;
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return FD->hasBody() &&
           (FD->hasAttr<CUDAGlobalAttr>() || FD->hasAttr<CUDADeviceAttr>()) &&
           findStorageWrite(FD->getBody(), V) != nullptr;
  if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
    return declWrites(FTD->getTemplatedDecl(), V);
  if (const auto *DC = dyn_cast<DeclContext>(D))
    for (const Decl *Inner : DC->decls())
      if (declWrites(Inner, V))
        return true;
  return false;
}

} // namespace

bool UniformBuffers::isUniform(const VarDecl *V, const FieldDecl *Field,
                               bool NestedField, const FunctionDecl *Function) {
  QualType T = V->getType();
  if (Field) {
    // A struct held by value: no other lane or store can change it, unless
    // the function writes it.
    if (T->isReferenceType() || T->isPointerType() ||
        !Field->getType()->isPointerType())
      return false;
  } else if (!T->isPointerType() && !T->isArrayType() &&
             !T->isDependentType()) {
    return false;
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return isUniformParameter(P, Field, NestedField, Function);
  // A __shared__ array of the kernel is one per thread block, so one for
  // every lane of a warp, and an array is never assigned.
  if (V->isLocalVarDecl() && V->hasAttr<CUDASharedAttr>() && !Field)
    return T->isArrayType();
  if (!V->hasGlobalStorage() || V->isLocalVarDecl() || V->isStaticDataMember())
    return false;
  return (T->isArrayType() && !Field) || T.isConstQualified() ||
         V->hasAttr<CUDAConstantAttr>() || !writtenInTranslationUnit(V);
}

/// A __device__ function's parameters are per-lane values (its callers may
/// pass each lane its own pointer); a kernel's are the launch's, unless the
/// kernel writes them.
bool UniformBuffers::isUniformParameter(const ParmVarDecl *P,
                                        const FieldDecl *Field,
                                        bool NestedField,
                                        const FunctionDecl *Function) const {
  const Stmt *Body = Function->getBody();
  return P->getDeclContext() == Function &&
         Function->hasAttr<CUDAGlobalAttr>() &&
         !findWrite(Body, P, /*Through=*/false) &&
         (!Field || P->getType().isConstQualified() ||
          (NestedField ? !findStorageWrite(Body, P)
                       : !writesMember(Body, P, Field)));
}

bool UniformBuffers::writtenInTranslationUnit(const VarDecl *V) {
  auto [It, Inserted] = GlobalWritten.try_emplace(V, false);
  if (!Inserted)
    return It->second;
  bool Written = false;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    Written = declWrites(D, V);
    if (Written)
      break;
  }
  return GlobalWritten[V] = Written;
}

} // namespace distwar
