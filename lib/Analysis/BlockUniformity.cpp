//===- BlockUniformity.cpp - values equal in every thread of a block ------===//

#include "Analysis/BlockUniformity.h"
#include "Analysis/AstQueries.h"
#include "Analysis/BlockIndexUses.h"
#include "Analysis/Collectives.h"
#include "Analysis/Purity.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distwar {

bool BlockUniformity::isUniform(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const VarDecl *BV = builtinVar(E))
    return BV->getName() != "threadIdx";
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(D))
      return true;
    const auto *V = dyn_cast<VarDecl>(D);
    return V && uniformVar(V);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return !U->isIncrementDecrementOp() && U->getOpcode() != UO_Deref &&
           U->getOpcode() != UO_AddrOf && isUniform(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           isUniform(B->getLHS()) && isUniform(B->getRHS());
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return isUniform(C->getCond()) && isUniform(C->getTrueExpr()) &&
           isUniform(C->getFalseExpr());
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return isUniform(Cast->getSubExpr());
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return !M->isArrow() && isa<FieldDecl>(M->getMemberDecl()) &&
           isUniform(M->getBase());
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return uniformCall(Call);
  return false;
}

/// A variable is uniform when it never changes after its initialiser and
/// that is uniform: an unchanged parameter of the kernel, or a local of it.
bool BlockUniformity::uniformVar(const VarDecl *V) {
  if (V->isConstexpr())
    return true;
  if (auto It = Vars.find(V); It != Vars.end())
    return It->second;
  Vars[V] = false;
  bool Uniform = false;
  const Stmt *Body = Kernel->getBody();
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    Uniform = P->getDeclContext() == Kernel &&
              !P->getType()->isReferenceType() &&
              !findWrite(Body, V, /*Through=*/false);
  else if (V->isLocalVarDecl() && !hasStorageBeyondCall(V) &&
           V->getDeclContext() == Kernel && !V->getType()->isReferenceType())
    Uniform = V->getInit() && isUniform(V->getInit()) &&
              !findWrite(Body, V, /*Through=*/false);
  Vars[V] = Uniform;
  return Uniform;
}

/// Cooperative groups' queries of the block's shape and place, and pure
/// functions of uniform arguments.
bool BlockUniformity::uniformCall(const CallExpr *Call) {
  if (isGroupIndexCall(Call))
    return true;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return false;
  llvm::StringRef N = FD->getIdentifier() ? FD->getName() : "";
  if (inCooperativeGroups(FD))
    return N == "group_dim" || N == "dim_threads" || N == "num_threads" ||
           N == "size";
  if (isa<CXXMethodDecl>(FD) || !readsOnlyArguments(FD))
    return false;
  return llvm::all_of(Call->arguments(),
                      [&](const Expr *A) { return isUniform(A); });
}

} // namespace distwar
