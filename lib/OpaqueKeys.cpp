//===- OpaqueKeys.cpp - keys computed by pure device functions ------------===//

#include "distwar/OpaqueKeys.h"
#include "distwar/AtomicSites.h"
#include "distwar/GroupSafety.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

const CallExpr *opaqueCallKey(const Expr *Key, ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(Key->IgnoreParenImpCasts());
  if (!Call || isa<CXXOperatorCallExpr>(Call))
    return nullptr;
  const FunctionDecl *FD = Call->getDirectCallee();
  // The key is evaluated again at the reduction: it must depend on its
  // arguments alone (not on memory the group's own atomics change).
  if (!FD || !readsOnlyArguments(FD))
    return nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(MC->getMethodDecl());
    if (!M || (!M->isConst() && !M->isStatic()) ||
        keyHasSideEffects(MC->getImplicitObjectArgument(), Ctx))
      return nullptr;
  }
  if (llvm::any_of(Call->arguments(),
                   [&](const Expr *A) { return keyHasSideEffects(A, Ctx); }))
    return nullptr;
  return Call;
}

bool keyHasSideEffects(const Expr *Key, ASTContext &Ctx) {
  if (!Key->HasSideEffects(Ctx, /*IncludePossibleEffects=*/true))
    return false;
  return !opaqueCallKey(Key, Ctx);
}

void profileGroupKey(const Expr *Key, llvm::FoldingSetNodeID &Id,
                     ASTContext &Ctx) {
  const CallExpr *Call = opaqueCallKey(Key, Ctx);
  if (!Call) {
    Key->Profile(Id, Ctx, /*Canonical=*/true);
    return;
  }
  Id.AddPointer(Call->getDirectCallee()->getCanonicalDecl());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    MC->getImplicitObjectArgument()->Profile(Id, Ctx, /*Canonical=*/true);
  Id.AddInteger(Call->getNumArgs());
  for (const Expr *A : Call->arguments()) {
    bool Constant = !A->isValueDependent() && isCompileTimeConstant(A, Ctx);
    Id.AddBoolean(Constant);
    if (!Constant)
      A->Profile(Id, Ctx, /*Canonical=*/true);
  }
}

bool keysDiffer(const Expr *A, const Expr *B, ASTContext &Ctx) {
  llvm::FoldingSetNodeID IdA, IdB;
  A->Profile(IdA, Ctx, /*Canonical=*/true);
  B->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA != IdB;
}

} // namespace distwar
