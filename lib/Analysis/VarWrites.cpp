//===- VarWrites.cpp - where a variable may change ------------------------===//

#include "Analysis/VarWrites.h"
#include "Analysis/Effects.h"
#include "Analysis/Purity.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distwar {

const VarDecl *referencedVar(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

bool refersToAny(const Stmt *S, const llvm::DenseSet<const VarDecl *> &Vars) {
  // Template arguments (`scaled<K>()`) and static assertions included.
  return !forEachStmt(S, [&](const Stmt *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(X);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return !V || !Vars.count(V);
  });
}

const VarDecl *rootVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      E = ASE->getBase();
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

const VarDecl *storageRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase();
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
             ASE &&
             ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      E = ASE->getBase()->IgnoreParenImpCasts();
    else
      return nullptr;
  }
  return nullptr;
}

enum class WriteMode { Direct, Through, Storage };

static bool designates(const Expr *E, const VarDecl *V, WriteMode Mode) {
  return mayDesignate(E, V, Mode == WriteMode::Through,
                      Mode == WriteMode::Storage);
}

static bool isNonConstReference(QualType T) {
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
}

/// A const method changes nothing of its object's storage; a pure one
/// (stores only to its locals) neither that nor anything it points to.
static bool readsOnly(const CXXMethodDecl *M, WriteMode Mode) {
  if (!M)
    return false;
  // A reference or pointer it returns may be stored through later.
  const QualType R = M->getReturnType();
  if (!M->isConst() &&
      ((R->isReferenceType() && !R.getNonReferenceType().isConstQualified()) ||
       (R->isPointerType() && !R->getPointeeType().isConstQualified())))
    return false;
  if (isPureCallee(M))
    return true;
  return M->isConst() && Mode == WriteMode::Storage;
}

/// Whether the built-in operator \p Op may change what \p V designates.
static bool builtinOperatorWrites(const CXXOperatorCallExpr *Op,
                                  const VarDecl *V, WriteMode Through) {
  if (Op->getNumArgs() == 0 || !designates(Op->getArg(0), V, Through))
    return false;
  switch (Op->getOperator()) {
  case OO_PlusPlus:
  case OO_MinusMinus:
    return true;
  case OO_Amp:
    return Op->getNumArgs() == 1;
  default:
    return Op->isAssignmentOp();
  }
}

/// An array that decays to a pointer other than to be indexed may be
/// written through that pointer later.
static bool decaysOutside(const Stmt *S, const VarDecl *V) {
  const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
  return ICE && ICE->getCastKind() == CK_ArrayToPointerDecay &&
         referencedVar(ICE->getSubExpr()) == V;
}

static const Stmt *writeIn(const Stmt *S, const VarDecl *V, WriteMode Through) {
  if (!S)
    return nullptr;
  if (decaysOutside(S, V))
    return S;
  // An array indexed in place: its decay is no escape.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
    if (const auto *Decay =
            dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
        Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
      if (const Stmt *W = writeIn(Decay->getSubExpr(), V, Through))
        return W;
      return writeIn(ASE->getIdx(), V, Through);
    }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && isBuiltinOperatorCall(Op)) {
    if (builtinOperatorWrites(Op, V, Through))
      return S;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp() && designates(BO->getLHS(), V, Through))
      return S;
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if ((UO->isIncrementDecrementOp() &&
         designates(UO->getSubExpr(), V, Through)) ||
        (UO->getOpcode() == UO_AddrOf &&
         designates(UO->getSubExpr(), V, Through)))
      return S;
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    unsigned Shift =
        isa<CXXOperatorCallExpr>(Call) && FD && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      if (!designates(Call->getArg(I), V, Through))
        continue;
      // The object of a member operator (`acc[i]`): as a method's.
      if (I == 0 && Shift == 1 &&
          readsOnly(cast<CXXMethodDecl>(FD), Through))
        continue;
      // A decayed member array lets the callee store into the variable.
      if (Through == WriteMode::Storage &&
          Call->getArg(I)->IgnoreParenImpCasts()->getType()->isArrayType())
        return S;
      // Unknown callee or parameter: it may bind a non-const reference.
      if (!FD || I < Shift || I - Shift >= FD->getNumParams() ||
          isNonConstReference(FD->getParamDecl(I - Shift)->getType()))
        return S;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (designates(MC->getImplicitObjectArgument(), V, Through) &&
          !readsOnly(MC->getMethodDecl(), Through))
        return S;
    if (callMayWrite(Call, V))
      return S;
  } else if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
    // An output operand (`"=r"(v)`, `"+r"(v)`) is stored by the assembly.
    for (const Expr *Out : Asm->outputs())
      if (designates(Out, V, Through))
        return S;
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (isNonConstReference(VD->getType()) && VD->getInit() &&
            designates(VD->getInit(), V,
                       Through == WriteMode::Storage ? Through
                                                     : WriteMode::Through))
          return S;
  }
  for (const Stmt *Child : S->children())
    if (const Stmt *W = writeIn(Child, V, Through))
      return W;
  return nullptr;
}

const Stmt *findWrite(const Stmt *Root, const VarDecl *V, bool Through) {
  return writeIn(Root, V, Through ? WriteMode::Through : WriteMode::Direct);
}

const Stmt *findStorageWrite(const Stmt *Root, const VarDecl *V) {
  return writeIn(Root, V, WriteMode::Storage);
}

/// The source of a trivial copy or move assignment of a class object
/// (`a = b` calls the implicit operator=, a member-wise copy), or null.
static const Expr *trivialAssignmentSource(const Stmt *S) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
  const auto *M =
      Op ? dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()) : nullptr;
  if (!M || !M->isTrivial() || Op->getNumArgs() != 2 ||
      (!M->isCopyAssignmentOperator() && !M->isMoveAssignmentOperator()))
    return nullptr;
  return Op->getArg(1);
}

void collectWrites(const Stmt *S, const VarDecl *V,
                   llvm::SmallVectorImpl<VarWrite> &Out) {
  if (!S)
    return;
  // An array indexed in place: its decay is no escape.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
    if (const auto *Decay =
            dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
        Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
      collectWrites(Decay->getSubExpr(), V, Out);
      collectWrites(ASE->getIdx(), V, Out);
      return;
    }
  auto Designates = [&](const Expr *E, bool &Whole) {
    const Expr *X = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X)) {
      Whole = true;
      return DRE->getDecl() == V;
    }
    Whole = false;
    return rootVariable(X) == V;
  };
  bool Whole = false;
  const auto *BO = dyn_cast<BinaryOperator>(S);
  const auto *UO = dyn_cast<UnaryOperator>(S);
  if (BO && BO->isAssignmentOp() && Designates(BO->getLHS(), Whole)) {
    Out.push_back({S, Whole ? BO->getRHS() : nullptr, false});
  } else if (const Expr *From = trivialAssignmentSource(S);
             From && Designates(cast<CallExpr>(S)->getArg(0), Whole)) {
    // A struct assigned whole (`uint2 r; r = ranges[t];`) takes the value
    // copied, as a scalar's assignment does.
    Out.push_back({S, Whole ? From : nullptr, false});
  } else if (UO && UO->isIncrementDecrementOp() &&
             Designates(UO->getSubExpr(), Whole)) {
    Out.push_back({S, nullptr, Whole});
  } else if (UO && UO->getOpcode() == UO_AddrOf &&
             Designates(UO->getSubExpr(), Whole)) {
    Out.push_back({S, nullptr, false});
  } else if (isa<BinaryOperator, UnaryOperator, CallExpr, CXXConstructExpr,
                 DeclStmt, ImplicitCastExpr, AsmStmt>(S)) {
    // A store through an alias, a call that changes a capture, an escape.
    if (findWrite(S, V, /*Through=*/true) == S)
      Out.push_back({S, nullptr, false});
  }
  for (const Stmt *Child : S->children())
    collectWrites(Child, V, Out);
}

void collectVars(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  forEachStmt(S, [&](const Stmt *X) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        Out.push_back(V);
    return true;
  });
}

const Expr *loadedPointer(const Stmt *S) {
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
    return ASE->getBase();
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    return UO->getSubExpr();
  if (const auto *ME = dyn_cast<MemberExpr>(S);
      ME && ME->isArrow() &&
      !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return ME->getBase();
  return nullptr;
}

} // namespace distwar
