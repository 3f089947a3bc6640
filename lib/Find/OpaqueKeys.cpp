//===- OpaqueKeys.cpp - keys computed by pure device functions ------------===//

#include "Find/OpaqueKeys.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Purity.h"
#include "Find/AtomicSites.h"
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

namespace {

/// What an operand can be as far as overloading is concerned.
enum class OperandKind { Pointer, Arithmetic, Unknown };

OperandKind operandKind(const Expr *E);

/// An operator Clang left unresolved in a template (`p + i` with `p` of type
/// `T *`, where some `operator+` is declared) whose operands are pointers or
/// built-in arithmetic: only the built-in operator applies, since an
/// overloaded one needs an operand of class or enumeration type.
OperandKind builtinOperatorKind(const CXXOperatorCallExpr *Op) {
  if (Op->getDirectCallee() ||
      !isa<UnresolvedLookupExpr>(Op->getCallee()->IgnoreImpCasts()))
    return OperandKind::Unknown;
  bool AnyPointer = false;
  for (const Expr *A : Op->arguments()) {
    OperandKind K = operandKind(A);
    if (K == OperandKind::Unknown)
      return OperandKind::Unknown;
    AnyPointer |= K == OperandKind::Pointer;
  }
  switch (Op->getOperator()) {
  case OO_Plus:
  case OO_Minus:
    return AnyPointer && Op->getNumArgs() == 2 ? OperandKind::Pointer
                                               : OperandKind::Arithmetic;
  case OO_Star:
  case OO_Slash:
  case OO_Percent:
  case OO_Amp:
  case OO_Pipe:
  case OO_Caret:
  case OO_LessLess:
  case OO_GreaterGreater:
    return AnyPointer ? OperandKind::Unknown : OperandKind::Arithmetic;
  default:
    return OperandKind::Unknown;
  }
}

OperandKind operandKind(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  QualType T = E->getType();
  if (T->isPointerType())
    return OperandKind::Pointer;
  if (!T->isDependentType() && T->isBuiltinType())
    return OperandKind::Arithmetic;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return builtinOperatorKind(Op);
  return OperandKind::Unknown;
}

/// Expr::HasSideEffects, except that built-in operators left unresolved in
/// a template are looked through rather than taken for calls.
bool mayHaveSideEffects(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && builtinOperatorKind(Op) != OperandKind::Unknown)
    return llvm::any_of(Op->arguments(), [&](const Expr *A) {
      return mayHaveSideEffects(A, Ctx);
    });
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && !BO->isAssignmentOp())
    return mayHaveSideEffects(BO->getLHS(), Ctx) ||
           mayHaveSideEffects(BO->getRHS(), Ctx);
  return E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/true);
}

} // namespace

bool keyHasSideEffects(const Expr *Key, ASTContext &Ctx) {
  if (!mayHaveSideEffects(Key, Ctx))
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
  return !sameExpression(A, B, Ctx);
}

} // namespace distwar
