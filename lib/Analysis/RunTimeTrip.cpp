//===- RunTimeTrip.cpp - Loops of run-time trip count, versioned ----------===//

#include "Analysis/RunTimeTrip.h"
#include "Analysis/AstQueries.h"
#include "Analysis/AtomicCalls.h"
#include "Analysis/Collectives.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

namespace {

/// `a[k]` of a local array \p A with a constant k inside its bounds.
bool isInBoundsLocalElement(const ArraySubscriptExpr *ASE, ASTContext &Ctx) {
  const auto *Decay =
      dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
  if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
    return false;
  const auto *Array =
      Ctx.getAsConstantArrayType(Decay->getSubExpr()->getType());
  Expr::EvalResult Index;
  if (!Array || ASE->getIdx()->isValueDependent() ||
      !ASE->getIdx()->EvaluateAsInt(Index, Ctx))
    return false;
  const llvm::APSInt &K = Index.Val.getInt();
  return !K.isNegative() && K.getZExtValue() < Array->getSize().getZExtValue();
}

/// An expression that can be evaluated before loop \p F with the value it
/// has in every iteration, and without faulting: literals, locals and
/// parameters by value that \p F does not change, `.` members, constant
/// in-bounds elements of local arrays, arithmetic and casts. No load
/// through a pointer, no call, no write.
bool isComputable(const Expr *E, const ForStmt *F) {
  E = E->IgnoreParens();
  ASTContext &Ctx = loopVariable(F)->getASTContext();
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(DRE->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && !V->getType()->isReferenceType() &&
           (V->isLocalVarDeclOrParm() || V->isConstexpr()) &&
           !findStorageWrite(F, V);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()) &&
           isComputable(ME->getBase(), F);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return isInBoundsLocalElement(ASE, Ctx) &&
           isComputable(cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens())
                            ->getSubExpr(),
                        F);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() != UO_Deref && UO->getOpcode() != UO_AddrOf &&
           !UO->isIncrementDecrementOp() && isComputable(UO->getSubExpr(), F);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCommaOp() &&
           isComputable(BO->getLHS(), F) && isComputable(BO->getRHS(), F);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isComputable(CO->getCond(), F) &&
           isComputable(CO->getTrueExpr(), F) &&
           isComputable(CO->getFalseExpr(), F);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return !isa<CXXDynamicCastExpr>(E) && !E->getType()->isReferenceType() &&
           isComputable(Cast->getSubExpr(), F);
  return false;
}

/// Whether \p E designates storage of a variable local to the function (the
/// variable, a member or an element of a local array), not memory reached
/// through a pointer or a reference.
bool isLocalStorage(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && V->isLocalVarDeclOrParm() && !V->getType()->isReferenceType() &&
           !hasStorageBeyondCall(V);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isLocalStorage(ME->getBase());
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Decay =
        dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
    return Decay && Decay->getCastKind() == CK_ArrayToPointerDecay &&
           isLocalStorage(Decay->getSubExpr());
  }
  return false;
}

/// CUDA's `atomicAdd(p, v)` with `p` a pointer to a floating-point type (a
/// user's function of that name may store anything).
bool isFloatingAtomicAdd(const CallExpr *Call, const SourceManager &SM) {
  if (!isDeviceAtomicAdd(Call, SM) || Call->getNumArgs() != 2)
    return false;
  const auto *Pointer = Call->getArg(0)->getType()->getAs<PointerType>();
  return Pointer && Pointer->getPointeeType()->isRealFloatingType();
}

/// Whether nothing \p S runs can store to an integer object outside the
/// function's local storage: it assigns only local storage and calls only
/// pure functions and floating-point atomicAdd (a float store cannot change
/// an integer object).
bool storesOnlyLocalsAndFloats(const Stmt *S, const SourceManager &SM) {
  if (!S)
    return true;
  if (hasOpaqueEffects(S))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && !isLocalStorage(BO->getLHS()))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp() && !isLocalStorage(UO->getSubExpr()))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && !isPureCallee(Call->getDirectCallee()) &&
      !isFloatingAtomicAdd(Call, SM))
    return false;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S);
      Construct && !Construct->getConstructor()->isTrivial() &&
      !isPureCallee(Construct->getConstructor()))
    return false;
  return llvm::all_of(S->children(), [&](const Stmt *Child) {
    return storesOnlyLocalsAndFloats(Child, SM);
  });
}

/// Whether \p Bound loads through a reference parameter, `r` or `r.a.m`.
/// No field is a reference, and none is a union's (whose members share
/// storage across types).
bool readsThroughReferenceParameter(const Expr *Bound) {
  const Expr *E = Bound->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (ME->isArrow() || !Field || Field->getType()->isReferenceType() ||
        Field->getParent()->isUnion())
      return false;
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && P->getType()->isReferenceType();
}

/// A bound loaded through a reference parameter (Pulsar's colour loop,
/// `c < cam.n_channels` with `const CamInfo &cam`): the loop's condition
/// makes the load as the loop starts anyway, and \p F cannot change what it
/// reads when its body stores nothing but local variables and
/// floating-point atomic adds.
bool isInvariantLoad(const Expr *Bound, const ForStmt *F,
                     const SourceManager &SM) {
  // A character may be a byte of a float the loop adds to.
  if (Bound->IgnoreParenImpCasts()->getType()->isAnyCharacterType())
    return false;
  return readsThroughReferenceParameter(Bound) &&
         storesOnlyLocalsAndFloats(F->getBody(), SM);
}

void flattenAdds(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Terms) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add) {
    flattenAdds(BO->getLHS(), Terms);
    flattenAdds(BO->getRHS(), Terms);
    return;
  }
  Terms.push_back(E);
}

/// \p Terms (a pointer and integers, or integers added to \p Base) hold
/// the loop variable once, alone, and otherwise only computable values.
bool isChannelSum(const Expr *Base, llvm::ArrayRef<const Expr *> Terms,
                  const ForStmt *F) {
  const VarDecl *V = loopVariable(F);
  const llvm::DenseSet<const VarDecl *> Var{V};
  unsigned Channels = 0;
  for (const Expr *T : Terms) {
    if (refersTo(T, V)) {
      ++Channels;
      continue;
    }
    if (refersToAny(T, Var) || !isComputable(T, F))
      return false;
  }
  return Channels == 1 &&
         (!Base || (!refersToAny(Base, Var) && isComputable(Base, F)));
}

/// `P[i]`: the pointer (or local array) and the index.
bool isChannelElement(const ArraySubscriptExpr *ASE, const ForStmt *F) {
  llvm::SmallVector<const Expr *, 4> Terms;
  flattenAdds(ASE->getIdx(), Terms);
  return isChannelSum(ASE->getBase(), Terms, F);
}

/// `P + t1 + ... + v`: one pointer term among integers.
bool isChannelPointerSum(const Expr *Sum, const ForStmt *F) {
  if (!Sum->getType()->isPointerType())
    return false;
  llvm::SmallVector<const Expr *, 4> Terms;
  flattenAdds(Sum, Terms);
  const Expr *Base = nullptr;
  llvm::SmallVector<const Expr *, 4> Ints;
  for (const Expr *T : Terms) {
    if (!T->getType()->isPointerType()) {
      Ints.push_back(T);
    } else if (Base) {
      return false;
    } else {
      Base = T;
    }
  }
  return Base && isChannelSum(Base, Ints, F);
}

} // namespace

bool isVersionableLoop(const ForStmt *F, const Stmt *Parent, ASTContext &Ctx) {
  std::optional<CountingLoop> Counting = matchCountingLoop(F);
  if (!Counting || !isa_and_nonnull<CompoundStmt>(Parent) ||
      !isa<DeclStmt>(F->getInit()))
    return false;
  const VarDecl *V = Counting->Var;
  const auto *Zero =
      dyn_cast<IntegerLiteral>(Counting->Start->IgnoreParenImpCasts());
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Zero || Zero->getValue() != 0 || !V->getType()->isBuiltinType() ||
      !V->getType()->isIntegerType() || !Cond || Cond->getOpcode() != BO_LT ||
      !refersTo(Cond->getLHS(), V))
    return false;
  const Expr *Bound = Cond->getRHS();
  // The versions name the bound in its place, and copy the loop whole (a
  // body written by a macro ends where its invocation does).
  const SourceManager &SM = Ctx.getSourceManager();
  if (!F->getBeginLoc().isFileID() || !Bound->getBeginLoc().isFileID() ||
      !Bound->getEndLoc().isFileID() ||
      Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(F->getSourceRange()), SM,
          Ctx.getLangOpts())
          .isInvalid())
    return false;
  if (Bound->isTypeDependent() || !Bound->getType()->isIntegerType() ||
      isCompileTimeConstant(Bound, Ctx) ||
      !(isComputable(Bound, F) || isInvariantLoad(Bound, F, SM)))
    return false;
  const Stmt *Body = F->getBody();
  return !findWrite(Body, V, /*Through=*/true) && !firstLoopExit(Body) &&
         !containsGoto(Body) && !mayBeCollective(Body) &&
         !mayReachBlockBarrier(Body);
}

bool isChannelAddress(const Expr *Addr, const ForStmt *F) {
  Addr = Addr->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Addr);
      UO && UO->getOpcode() == UO_AddrOf) {
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    return ASE && isChannelElement(ASE, F);
  }
  return isChannelPointerSum(Addr, F);
}

bool isChannelRead(const Expr *Read, const ForStmt *F) {
  Read = Read->IgnoreParenImpCasts();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Read))
    return isChannelElement(ASE, F);
  if (const auto *UO = dyn_cast<UnaryOperator>(Read);
      UO && UO->getOpcode() == UO_Deref)
    return isChannelPointerSum(UO->getSubExpr()->IgnoreParenImpCasts(), F);
  return false;
}

} // namespace distwar
