//===- ReadOnlyParameters.cpp - memory a kernel only reads ----------------===//

#include "Analysis/ReadOnlyParameters.h"
#include "Analysis/Effects.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace distwar {

/// An object no store can change without a cast: const, not volatile, no
/// mutable member.
static bool isReadOnlyObject(QualType T) {
  if (!T.isConstQualified() || T.isVolatileQualified())
    return false;
  const auto *RD = T->getAsCXXRecordDecl();
  return !RD || !RD->hasDefinition() || !RD->hasMutableFields();
}

static bool isReadOnlyPointer(QualType T) {
  return T->isPointerType() && isReadOnlyObject(T->getPointeeType());
}

static bool designatesObjectInVars(const Expr *E, const ReadOnlyRoots &Vars);

/// `a.spans`: a member of the by-value parameter that \p ME names, when
/// that member is one of \p Vars' pointer members.
static bool namesPointerMember(const MemberExpr *ME,
                               const ReadOnlyRoots &Vars) {
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParens());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return !ME->isArrow() && Field && V &&
         Vars.PointerMembers.contains({V, Field});
}

/// Whether the lvalue \p E names one of the pointer variables or pointer
/// members of \p Vars (`p`, `a.spans`, `c ? p : q`).
static bool namesPointerVar(const Expr *E, const ReadOnlyRoots &Vars) {
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && Vars.Vars.contains(V) && V->getType()->isPointerType();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return namesPointerMember(ME, Vars);
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    return ICE->getCastKind() == CK_NoOp && ICE->isGLValue() &&
           namesPointerVar(ICE->getSubExpr(), Vars);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return CO->isGLValue() && namesPointerVar(CO->getTrueExpr(), Vars) &&
           namesPointerVar(CO->getFalseExpr(), Vars);
  return false;
}

/// Whether the pointer value \p E points into the memory that \p Vars (a
/// parameter, derived pointers and references) reach.
static bool pointsIntoVars(const Expr *E, const ReadOnlyRoots &Vars) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = CE->getSubExpr()->IgnoreParens();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      return namesPointerVar(Sub, Vars);
    case CK_ArrayToPointerDecay:
      return designatesObjectInVars(Sub, Vars);
    default:
      return isReadOnlyPointer(CE->getType()) &&
             Sub->getType()->isPointerType() && pointsIntoVars(Sub, Vars);
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if ((BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub) ||
        !BO->getType()->isPointerType())
      return false;
    const Expr *Ptr =
        BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    return pointsIntoVars(Ptr, Vars);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_AddrOf &&
           designatesObjectInVars(UO->getSubExpr(), Vars);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return pointsIntoVars(CO->getTrueExpr(), Vars) &&
           pointsIntoVars(CO->getFalseExpr(), Vars);
  return false;
}

/// Whether the lvalue \p E designates an object in that memory.
static bool designatesObjectInVars(const Expr *E, const ReadOnlyRoots &Vars) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return pointsIntoVars(ASE->getBase(), Vars);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref &&
           pointsIntoVars(UO->getSubExpr(), Vars);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           (ME->isArrow() ? pointsIntoVars(ME->getBase(), Vars)
                          : designatesObjectInVars(ME->getBase(), Vars));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && Vars.Vars.contains(V) && V->getType()->isReferenceType();
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    return ICE->isGLValue() &&
           (ICE->getCastKind() == CK_NoOp ||
            ICE->getCastKind() == CK_DerivedToBase ||
            ICE->getCastKind() == CK_UncheckedDerivedToBase) &&
           designatesObjectInVars(ICE->getSubExpr(), Vars);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return CO->isGLValue() && designatesObjectInVars(CO->getTrueExpr(), Vars) &&
           designatesObjectInVars(CO->getFalseExpr(), Vars);
  return false;
}

namespace {

/// What a variable of a family holds: a pointer into the memory, or (a
/// const reference) an object in it.
enum class Held { Pointer, Object };

/// One read-only candidate parameter, or pointer member of a by-value
/// parameter, and the locals derived from it, grown use by use; any use
/// that may write, or that lets the pointer go where the walk cannot
/// follow, ends the family.
class Family {
public:
  using Uses =
      llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *>>;

  Family(const ParentMap &Parents, const Uses &Names)
      : Parents(Parents), Names(Names) {}

  /// Whether every use of \p P (with \p F, of its pointer member F) and of
  /// what is derived from it only reads; the members are then in Members.
  bool grow(const ParmVarDecl *P, const FieldDecl *F) {
    if (!F)
      add(P, Held::Pointer);
    else if (!growMember(P, F))
      return false;
    for (size_t I = 0; I < Work.size(); ++I) {
      auto [V, H] = Work[I];
      auto It = Names.find(V);
      if (It == Names.end())
        continue;
      for (const DeclRefExpr *DRE : It->second)
        if (!nameUse(DRE, H))
          return false;
    }
    // A derived local holds this family's memory only when all of its
    // initialiser does (`c ? p : other` may point elsewhere).
    return llvm::all_of(Work, [&](const std::pair<const VarDecl *, Held> &VH) {
      const VarDecl *V = VH.first;
      if (isa<ParmVarDecl>(V))
        return true;
      return VH.second == Held::Pointer
                 ? pointsIntoVars(V->getInit(), Members)
                 : designatesObjectInVars(V->getInit(), Members);
    });
  }

  /// The parameters and pointer members, and the locals derived from them.
  const ReadOnlyRoots &members() const { return Members; }

private:
  /// A member's struct is used only through its fields (the whole struct,
  /// copied, passed or addressed, would take F's value where the walk
  /// cannot follow), and F as a pointer variable is.
  bool growMember(const ParmVarDecl *P, const FieldDecl *F) {
    Members.PointerMembers.insert({P, F});
    auto It = Names.find(P);
    return It == Names.end() ||
           llvm::all_of(It->second, [&](const DeclRefExpr *DRE) {
             return memberRootUse(DRE, F);
           });
  }

  void add(const VarDecl *V, Held H) {
    if (Members.Vars.insert(V).second)
      Work.push_back({V, H});
  }

  /// The parent of \p E above its parentheses; \p E becomes the outermost
  /// parenthesised expression.
  const Stmt *up(const Expr *&E) const {
    const Stmt *P = Parents.getParent(E);
    while (const auto *PE = dyn_cast_or_null<ParenExpr>(P)) {
      E = PE;
      P = Parents.getParent(PE);
    }
    return P;
  }

  bool nameUse(const DeclRefExpr *DRE, Held H);
  bool memberRootUse(const DeclRefExpr *DRE, const FieldDecl *F);
  bool pointerVarUse(const Expr *E);
  bool pointerUse(const Expr *E);
  bool objectUse(const Expr *E);
  bool memberUse(const MemberExpr *ME);
  bool callUse(const CallExpr *Call, const Expr *Arg);
  bool declaredFrom(const DeclStmt *DS, const Expr *Init, Held H);

  const ParentMap &Parents;
  const Uses &Names;
  ReadOnlyRoots Members;
  llvm::SmallVector<std::pair<const VarDecl *, Held>, 4> Work;
};

} // namespace

bool Family::nameUse(const DeclRefExpr *DRE, Held H) {
  return H == Held::Object ? objectUse(DRE) : pointerVarUse(DRE);
}

/// \p DRE names a by-value parameter of which \p F is a root: a field of
/// it, other than F, is storage apart from F's (the struct is no union);
/// F is a pointer variable.
bool Family::memberRootUse(const DeclRefExpr *DRE, const FieldDecl *F) {
  const Expr *E = DRE;
  const Stmt *P = up(E);
  if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P))
    return true;
  const auto *ME = dyn_cast_or_null<MemberExpr>(P);
  if (!ME || ME->isArrow() || ME->getBase() != E ||
      !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  return ME->getMemberDecl() != F || pointerVarUse(ME);
}

/// \p E is an lvalue of a variable holding a pointer into the memory: only
/// its value may be taken (an assignment, `&p` or `++p` may change it).
bool Family::pointerVarUse(const Expr *E) {
  const Stmt *P = up(E);
  if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P))
    return true;
  if (const auto *ICE = dyn_cast_or_null<ImplicitCastExpr>(P)) {
    if (ICE->getCastKind() == CK_LValueToRValue)
      return pointerUse(ICE);
    return ICE->getCastKind() == CK_NoOp && ICE->isGLValue() &&
           pointerVarUse(ICE);
  }
  // `c ? p : q`, an lvalue of either variable.
  if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(P))
    return CO->isGLValue() && CO->getCond() != E && pointerVarUse(CO);
  return false;
}

/// \p E is a pointer value into the memory: where it goes.
bool Family::pointerUse(const Expr *E) {
  const Stmt *P = up(E);
  if (!P)
    return false;
  if (isa<UnaryExprOrTypeTraitExpr>(P))
    return true;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P))
    return ICE->getCastKind() == CK_PointerToBoolean ||
           (isReadOnlyPointer(ICE->getType()) && pointerUse(ICE));
  // A cast to a pointer to non-const is how a store could reach it.
  if (const auto *ECE = dyn_cast<ExplicitCastExpr>(P))
    return ECE->getType()->isBooleanType() ||
           (isReadOnlyPointer(ECE->getType()) && pointerUse(ECE));
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P))
    return ASE->getBase() == E && objectUse(ASE);
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_Deref)
      return objectUse(UO);
    return UO->getOpcode() == UO_LNot;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(P))
    return ME->isArrow() && ME->getBase() == E && memberUse(ME);
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      // Pointer arithmetic, or a difference of pointers.
      return !BO->getType()->isPointerType() || pointerUse(BO);
    case BO_Comma:
      return BO->getLHS() == E || pointerUse(BO);
    default:
      return BO->isComparisonOp() || BO->isLogicalOp();
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(P))
    return CO->getCond() == E || pointerUse(CO);
  if (const auto *DS = dyn_cast<DeclStmt>(P))
    return declaredFrom(DS, E, Held::Pointer);
  if (const auto *Call = dyn_cast<CallExpr>(P))
    return Call->getCallee() != E && callUse(Call, E);
  return false;
}

/// \p E is an lvalue of an object in the memory: what is done with it.
bool Family::objectUse(const Expr *E) {
  const Stmt *P = up(E);
  if (!P)
    return false;
  if (isa<UnaryExprOrTypeTraitExpr>(P))
    return true;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
    switch (ICE->getCastKind()) {
    case CK_LValueToRValue:
      return true;
    case CK_ArrayToPointerDecay:
      return pointerUse(ICE);
    case CK_NoOp:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      return ICE->isGLValue() && isReadOnlyObject(ICE->getType()) &&
             objectUse(ICE);
    default:
      return false;
    }
  }
  if (const auto *ECE = dyn_cast<ExplicitCastExpr>(P))
    return ECE->isGLValue() && isReadOnlyObject(ECE->getType()) &&
           objectUse(ECE);
  if (const auto *ME = dyn_cast<MemberExpr>(P))
    return !ME->isArrow() && ME->getBase() == E && memberUse(ME);
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->getOpcode() == UO_AddrOf && pointerUse(UO);
  // A copy (`const uint2 range = p[i];`); any other constructor may keep
  // the object's address.
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(P))
    return CCE->getConstructor()->isTrivial();
  if (const auto *Call = dyn_cast<CallExpr>(P))
    return callUse(Call, E);
  if (const auto *DS = dyn_cast<DeclStmt>(P))
    return declaredFrom(DS, E, Held::Object);
  if (const auto *CO = dyn_cast<ConditionalOperator>(P))
    return CO->isGLValue() && objectUse(CO);
  if (const auto *BO = dyn_cast<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Comma)
    return BO->getLHS() == E || objectUse(BO);
  return false;
}

/// A member of an object in the memory (a field, or a method called on it).
bool Family::memberUse(const MemberExpr *ME) {
  if (!isa<CXXMethodDecl>(ME->getMemberDecl()))
    return objectUse(ME);
  const Expr *E = ME;
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(up(E));
  return Call && callUse(Call, nullptr);
}

/// Whether \p Call, of a function of the compiler or of CUDA's and the C
/// library's headers (`__ldg`), takes its argument \p Arg as a pointer or
/// reference to const: such a function keeps its declaration's promise and
/// stores nothing through it.
static bool libraryTakesAsConst(const CallExpr *Call, const Expr *Arg) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !Arg)
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (!FD->getBuiltinID() &&
      !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return false;
  const unsigned Shift =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
    if (Call->getArg(I) != Arg)
      continue;
    if (I - Shift >= FD->getNumParams())
      return false; // a variadic argument
    const QualType T = FD->getParamDecl(I - Shift)->getType();
    return T->isReferenceType() ? isReadOnlyObject(T.getNonReferenceType())
                                : isReadOnlyPointer(T);
  }
  return false;
}

/// A call given \p Arg, a pointer into the memory or an object in it (null:
/// the object a method is called on): a trivial copy assignment, a call
/// that writes no memory or a library function that takes it as const,
/// whose result, if it leads back into the memory, is used only to read.
bool Family::callUse(const CallExpr *Call, const Expr *Arg) {
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
      MD && MD->isTrivial() &&
      (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()))
    return true;
  if (!libraryTakesAsConst(Call, Arg) && !effectsOfCall(Call).isPure())
    return false;
  const QualType R = Call->getType();
  if (Call->isGLValue())
    return isReadOnlyObject(R) && objectUse(Call);
  if (R->isPointerType())
    return isReadOnlyPointer(R) && pointerUse(Call);
  return true;
}

/// \p Init initialises a variable of \p DS: a local pointer or const
/// reference joins the family.
bool Family::declaredFrom(const DeclStmt *DS, const Expr *Init, Held H) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || V->getInit() != Init)
      continue;
    if (!V->isLocalVarDecl() || V->isStaticLocal() ||
        V->hasAttr<CUDASharedAttr>())
      return false;
    QualType T = V->getType();
    if (H == Held::Pointer ? !isReadOnlyPointer(T)
                           : !T->isReferenceType() ||
                                 !isReadOnlyObject(T.getNonReferenceType()))
      return false;
    add(V, H);
    return true;
  }
  return false;
}

/// A `const T *__restrict__` parameter or member: restrict promises that
/// while the kernel runs, what is read through it is changed, if at all,
/// only through pointers based on it; the family check shows the kernel
/// changes nothing through those.
static bool isReadOnlyCandidate(QualType T) {
  return T.isRestrictQualified() && isReadOnlyPointer(T);
}

/// A candidate family's root: a parameter, or a pointer member of one.
using Root = std::pair<const ParmVarDecl *, const FieldDecl *>;

/// \p P itself, or the candidate members of by-value struct parameter \p P
/// that the kernel never changes (\p Body): C's restrict holds for a
/// member as for a parameter, since the parameter's declaration designates
/// it and the kernel's body is the block in which it holds. Not a union's
/// member, nor a base's or an anonymous member's: their storage may be
/// another member's, or be named other than through P's fields.
static void addCandidates(const ParmVarDecl *P, const Stmt *Body,
                          llvm::SmallVectorImpl<Root> &Out) {
  if (isReadOnlyCandidate(P->getType()))
    Out.push_back({P, nullptr});
  const auto *RD = P->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isUnion() || findStorageWrite(Body, P))
    return;
  for (const FieldDecl *F : RD->fields())
    if (isReadOnlyCandidate(F->getType()))
      Out.push_back({P, F});
}

ReadOnlyParameters::ReadOnlyParameters(const FunctionDecl *Kernel,
                                       const ParentMap *Parents) {
  const Stmt *Body = Kernel->getBody();
  if (!Body || !Parents || !Kernel->hasAttr<CUDAGlobalAttr>())
    return;
  llvm::SmallVector<Root, 4> Candidates;
  for (const ParmVarDecl *P : Kernel->parameters())
    addCandidates(P, Body, Candidates);
  if (Candidates.empty())
    return;
  Family::Uses Names;
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        Names[V].push_back(DRE);
    return true;
  });
  for (auto [P, Field] : Candidates) {
    Family F(*Parents, Names);
    if (F.grow(P, Field))
      Roots.join(F.members());
  }
}

bool ReadOnlyParameters::pointsInto(const Expr *Ptr) const {
  return pointsIntoVars(Ptr, Roots);
}

bool ReadOnlyParameters::designatesObjectIn(const Expr *Object) const {
  return designatesObjectInVars(Object, Roots);
}

bool ReadOnlyParameters::bindsInto(const VarDecl *Ref) const {
  return Ref->getType()->isReferenceType() && Roots.Vars.contains(Ref);
}

} // namespace distwar
