//===- PointerOrigins.cpp - where a pointer in a body leads ---------------===//
//
// A body's loads and stores, and the pointers it passes to the functions it
// calls, are known from its call's arguments only when they lead into the
// memory of its own pointer parameters; into its own frame they reach
// nothing its callers can see.
//
//===----------------------------------------------------------------------===//

#include "Analysis/EffectsInternal.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace distwar {

/// One step from the pointer value \p P towards the pointer it is computed
/// from, within the same memory: `q + i` -> `q`, `&q[i]` -> `q`, `q[i]` of
/// an array element (decayed) -> `q`; null where \p P is no such step.
static const Expr *innerPointer(const Expr *P) {
  if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isAdditiveOp())
    return BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                    : BO->getRHS();
  if (const auto *UO = dyn_cast<UnaryOperator>(P);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      return ASE->getBase();
  // A pointer held in the memory (`q[i]` of a `T **q`) is not a step: it
  // was loaded, and points elsewhere.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P);
      ASE && ASE->getType()->isArrayType())
    return ASE->getBase();
  return nullptr;
}

bool pointsIntoOwnParameter(const Expr *Pointer, const FunctionDecl *FD) {
  const Expr *P = Pointer->IgnoreParenImpCasts();
  while (const Expr *Inner = innerPointer(P))
    P = Inner->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(P);
  const auto *Param = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return Param && Param->getType()->isPointerType() &&
         isOwnVariable(Param, FD) &&
         !findWrite(FD->getBody(), Param, /*Through=*/false);
}

/// The object whose address the pointer value \p P is (`&x`, an array's
/// decay, through pointer arithmetic and casts that keep the address), or
/// null: a pointer read from a variable or loaded, a cast from an integer.
static const Expr *addressedObject(const Expr *P) {
  while (true) {
    P = P->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
      switch (ICE->getCastKind()) {
      case CK_ArrayToPointerDecay:
        return ICE->getSubExpr();
      case CK_NoOp:
      case CK_BitCast:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
        P = ICE->getSubExpr();
        continue;
      default:
        return nullptr;
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->isAdditiveOp() && BO->getType()->isPointerType()) {
      P = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P);
        UO && UO->getOpcode() == UO_AddrOf)
      return UO->getSubExpr();
    return nullptr;
  }
}

bool pointsIntoOwnFrame(const Expr *Pointer, const FunctionDecl *FD) {
  const Expr *Object = addressedObject(Pointer);
  if (!Object) {
    const auto *ICE = dyn_cast<ImplicitCastExpr>(Pointer->IgnoreParens());
    return ICE && ICE->getCastKind() == CK_NullToPointer;
  }
  Object = Object->IgnoreParens();
  // `__extension__ __PRETTY_FUNCTION__`, as assert names its function.
  if (const auto *UO = dyn_cast<UnaryOperator>(Object);
      UO && UO->getOpcode() == UO_Extension)
    Object = UO->getSubExpr()->IgnoreParens();
  if (isa<StringLiteral, PredefinedExpr>(Object))
    return true;
  const VarDecl *Root = storageRoot(Object);
  return Root && isOwnVariable(Root, FD) && !Root->isStaticLocal() &&
         !Root->hasAttr<CUDASharedAttr>() &&
         !Root->getType()->isReferenceType();
}

} // namespace distwar
