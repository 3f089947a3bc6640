//===- RegionChecker.cpp - What deferring atomics crosses -----------------===//

#include "Decide/RegionChecker.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Effects.h"
#include "Analysis/ObjectStorage.h"
#include "Analysis/Purity.h"
#include "Analysis/RunTimeTrip.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

namespace {

/// `p` as a condition, `p != nullptr`, `p == 0`, `NULL != p`: a test of a
/// pointer variable against null.
bool isNullTestOfVariable(const Stmt *S, ASTContext &Ctx) {
  auto IsVariable = [](const Expr *E) {
    return isa<DeclRefExpr>(E->IgnoreParenImpCasts()) &&
           E->IgnoreParenImpCasts()->getType()->isPointerType();
  };
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S))
    return ICE->getCastKind() == CK_PointerToBoolean &&
           IsVariable(ICE->getSubExpr());
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isEqualityOp()) {
    L = BO->getLHS();
    R = BO->getRHS();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && Op->getNumArgs() == 2 &&
             (Op->getOperator() == OO_EqualEqual ||
              Op->getOperator() == OO_ExclaimEqual) &&
             isBuiltinOperatorCall(Op)) {
    L = Op->getArg(0);
    R = Op->getArg(1);
  } else {
    return false;
  }
  auto IsNull = [&](const Expr *E) {
    return E->IgnoreParenImpCasts()->getType()->isNullPtrType() ||
           (!E->isValueDependent() &&
            E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull));
  };
  return (IsVariable(L) && IsNull(R)) || (IsNull(L) && IsVariable(R));
}

} // namespace

/// The note of a store that may reach a destination buffer.
static constexpr llvm::StringLiteral StoreText =
    "this store may write a destination buffer";

RegionChecker::RegionChecker(const std::vector<AtomicSite> &Sites,
                             llvm::DenseSet<const VarDecl *> Buffers,
                             const FunctionDecl *Function)
    : Buffers(std::move(Buffers)), Function(Function) {
  DestinationsUnaliased =
      llvm::all_of(this->Buffers, [&](const VarDecl *B) {
        return isKernelValue(B) && isUnaliased(B->getType());
      });
  for (const AtomicSite &S : Sites) {
    if (!this->Buffers.contains(S.Buffer))
      continue;
    // A dependent address has no pointee type yet: nothing is disjoint.
    QualType T = S.Call->getArg(0)->getType();
    QualType Pointee = T->isPointerType() ? T->getPointeeType() : QualType();
    if (Pointee.isNull() || Pointee->isDependentType())
      TypesKnown = false;
    else
      DestinationTypes.push_back(
          Pointee.getCanonicalType().getUnqualifiedType());
  }
  for (const AtomicSite &S : Sites)
    if (S.IsDeviceAdd && S.Why != Reason::UsedResult)
      CommutingAtomics.insert(S.Call);
}

Verdict RegionChecker::check(const Stmt *S, bool BeforeAnyAdd) {
  LoadsMatter = !BeforeAnyAdd;
  visit(S, /*AddressOfAtomic=*/false);
  LoadsMatter = true;
  return Found;
}

void RegionChecker::fail(Reason R, const Stmt *At, llvm::StringRef Text) {
  if (Found == Reason::None)
    Found = Verdict(R, placeAt(Function->getASTContext().getSourceManager(),
                               At->getBeginLoc(), Text));
}

void RegionChecker::visit(const Stmt *S, bool AddressOfAtomic) {
  if (!S || Found != Reason::None)
    return;
  // A jump from outside into the region would run only its tail: a lane
  // could then set a later field without the earlier ones.
  if (isa<LabelStmt>(S) || (isa<SwitchCase>(S) && !SwitchDepth))
    return fail(Reason::JumpIntoRegion, S,
                isa<LabelStmt>(S)
                    ? "a goto to this label would run only part of the group"
                    : "a jump to this case would run only part of the group");
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    ++SwitchDepth;
    for (const Stmt *Child : Sw->children())
      visit(Child, AddressOfAtomic);
    --SwitchDepth;
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_AddrOf)
    return visitAddress(UO->getSubExpr(), AddressOfAtomic);
  // `r.m` (r a reference) reads only the member: a scalar of a type no
  // destination has cannot be one.
  if (const auto *ME = dyn_cast<MemberExpr>(S);
      ME && LoadsMatter && readsDisjointMember(ME))
    return;
  // A reference names memory elsewhere: reading it is a load.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
      DRE && LoadsMatter && referenceMayReadDestination(DRE->getDecl(), 0))
    return fail(Reason::ReadMayAlias, S,
                "this read through a reference may be of a destination "
                "buffer");
  if (const Expr *Pointer = loadedPointer(S); Pointer && LoadsMatter &&
                                              !cannotHoldDestination(Pointer) &&
                                              mayReadDestination(Pointer)) {
    // The run-time test repeats the read's text: spelled in the file (a
    // macro's argument at most), not made by a macro's body.
    if (!ChannelLoop || !isChannelRead(cast<Expr>(S), ChannelLoop) ||
        sourceText(cast<Expr>(S), Function->getASTContext()).empty())
      return fail(Reason::ReadMayAlias, S,
                  "this read may be of a destination buffer");
    ChannelReads->push_back(cast<Expr>(S));
  }
  if (visitBufferName(S, AddressOfAtomic))
    return;
  if (isa<AsmStmt>(S))
    return fail(Reason::CallBetween, S, "inline assembly may write memory");
  // Testing a buffer pointer for null reads no memory (conditional fields).
  if (isNullTestOfVariable(S, Function->getASTContext()))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && visitCall(Call, AddressOfAtomic))
    return;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (!Construct->getConstructor()->isTrivial() &&
        !isPureCallee(Construct->getConstructor()))
      return fail(Reason::CallBetween, S, "this constructor may write memory");
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && !isPrivateStore(BO->getLHS()))
    return fail(Reason::StoreBetween, S, StoreText);
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp() && !isPrivateStore(UO->getSubExpr()))
    return fail(Reason::StoreBetween, S, StoreText);
  for (const Stmt *Child : S->children())
    visit(Child, AddressOfAtomic);
}

/// A destination buffer named (`buf`), or `p.f` where p holds pointer-member
/// buffers (only those members are destinations): true when \p S is one,
/// failing unless it is an atomic's own address.
bool RegionChecker::visitBufferName(const Stmt *S, bool AddressOfAtomic) {
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && !ME->isArrow())
    if (const auto *Base =
            dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (Buffers.contains(dyn_cast<VarDecl>(Base->getDecl())) &&
          !Fields.empty()) {
        if (Fields.contains(dyn_cast<FieldDecl>(ME->getMemberDecl())) &&
            !AddressOfAtomic)
          fail(Reason::BufferAccessedBetween, S,
               ("destination buffer '" + Base->getDecl()->getName() + "." +
                ME->getMemberDecl()->getName() + "' is used here")
                   .str());
        return true;
      }
  const auto *DRE = dyn_cast<DeclRefExpr>(S);
  if (!DRE)
    return false;
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      VD && Buffers.contains(VD) && !AddressOfAtomic)
    fail(Reason::BufferAccessedBetween, S,
         ("destination buffer '" + VD->getName() + "' is used here").str());
  return true;
}

/// True when \p Call was checked whole (or failed); false when its
/// children are still to be visited (a pure call).
bool RegionChecker::visitCall(const CallExpr *Call, bool AddressOfAtomic) {
  // `a = b` of a trivially copyable struct (float2, a user's POD) is a
  // store, whatever the call around it.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && isTrivialAssignment(Op)) {
    if (!isPrivateStore(Op->getArg(0))) {
      fail(Reason::StoreBetween, Call, StoreText);
      return true;
    }
    visitAddress(Op->getArg(0), AddressOfAtomic);
    visit(Op->getArg(1), false);
    return true;
  }
  if (CommutingAtomics.contains(Call)) {
    // Unused-result atomicAdds commute with the group's deferred adds.
    visit(Call->getArg(0), true);
    visit(Call->getArg(1), false);
    return true;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && isBuiltinOperatorCall(Op)) {
    // A dependent operator on arithmetic operands: the builtin one in
    // every instantiation.
    if ((Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
         Op->getOperator() == OO_MinusMinus) &&
        !isPrivateStore(Op->getArg(0)))
      fail(Reason::StoreBetween, Call, StoreText);
    else
      for (const Expr *Arg : Op->arguments())
        visit(Arg, AddressOfAtomic);
    return true;
  }
  // A method that writes only its own object, called on a local (`v -= w`).
  const Expr *Object = callObject(Call);
  if (!isPureCall(Call) &&
      !(Object && Call->getDirectCallee() &&
        effectsOfCallee(Call->getDirectCallee()).writesOnlyObject() &&
        isPrivateObject(Object))) {
    fail(Reason::CallBetween, Call, "this call may write memory");
    return true;
  }
  if (LoadsMatter && visitCalleeReads(Call))
    return true;
  // A pure function may still read through the pointers it is given.
  if (LoadsMatter && !readsOnlyArguments(Call->getDirectCallee()))
    for (const Expr *Arg : Call->arguments())
      if (Arg->getType()->isPointerType() && mayReadDestination(Arg)) {
        fail(Reason::ReadMayAlias, Arg,
             "this call may read a destination buffer through its argument");
        return true;
      }
  return false;
}

/// What a pure callee reads beyond its pointer arguments (which the caller
/// checks): a destination it names (a lambda's capture), memory through a
/// global, a captured pointer or a struct argument's pointer member. True
/// when that failed the check.
bool RegionChecker::visitCalleeReads(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return false;
  CallEffects E = effectsOfCallee(FD);
  for (const VarDecl *V : E.OuterReads)
    if (Buffers.contains(V)) {
      fail(Reason::BufferAccessedBetween, Call,
           ("this call reads destination buffer '" + V->getName() + "'")
               .str());
      return true;
    }
  if (!E.ReadsBeyondParameters)
    return false;
  fail(Reason::ReadMayAlias, Call,
       "this call may read a destination buffer through a global, a capture "
       "or a pointer it was not given");
  return true;
}

/// The operand of `&`: its own subscripts and members compute an
/// address, they do not load; its pointers and indices are read.
void RegionChecker::visitAddress(const Expr *E, bool AddressOfAtomic) {
  E = E->IgnoreParens();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = ASE->getBase()->IgnoreParens();
    const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
    if (Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
      visitAddress(Decay->getSubExpr(), AddressOfAtomic);
    else
      visit(Base, AddressOfAtomic);
    return visit(ASE->getIdx(), false);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? visit(ME->getBase(), AddressOfAtomic)
                         : visitAddress(ME->getBase(), AddressOfAtomic);
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return visit(UO->getSubExpr(), AddressOfAtomic);
  visit(E, AddressOfAtomic);
}

bool RegionChecker::isTrivialAssignment(const CXXOperatorCallExpr *Op) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  return M && Op->getNumArgs() == 2 && M->isTrivial() &&
         (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator());
}

/// Whether memory read through \p P may be a destination of the group
/// (then the deferred atomics would be missing from what is read).
/// Provably not: shared, local and constant memory; a kernel parameter
/// declared `__restrict__`; and, when every destination is a
/// `__restrict__` kernel parameter, any pointer not derived from one (C's
/// restrict: what is changed through it is accessed through nothing
/// else). `const` alone proves nothing: the same buffer may be passed
/// twice. A destination buffer named directly is reported where its name
/// is visited (BufferAccessedBetween), not here.
bool RegionChecker::mayReadDestination(const Expr *P, unsigned Depth) {
  P = P->IgnoreParenCasts();
  if (Depth > 8)
    return true;
  // Depth 0 is the text between the sites, where a destination's own name
  // is visited and reported; deeper is a local's initializer, elsewhere.
  const bool NameVisited = Depth == 0;
  if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isAdditiveOp())
    return mayReadDestination(BO->getLHS()->getType()->isPointerType()
                                  ? BO->getLHS()
                                  : BO->getRHS(),
                              NameVisited ? 0 : Depth + 1);
  if (P->getType()->isArrayType())
    return arrayMayBeDestination(P, Depth);
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    const VarDecl *Root = referencedVar(ME->getBase());
    if (Root && Buffers.contains(Root) &&
        Fields.contains(dyn_cast<FieldDecl>(ME->getMemberDecl())))
      return !NameVisited;
    return ME->isArrow() || !isKernelValue(Root) ||
           !(isUnaliased(ME->getType()) || DestinationsUnaliased);
  }
  const VarDecl *V = referencedVar(P);
  if (!V)
    return true;
  if (Buffers.contains(V))
    return !NameVisited;
  if (isa<ParmVarDecl>(V))
    return !isKernelValue(V) ||
           !(isUnaliased(V->getType()) || DestinationsUnaliased);
  if (V->isLocalVarDecl() && !V->isStaticLocal() && V->getInit() &&
      !findWrite(Function->getBody(), V, /*Through=*/false))
    return mayReadDestination(V->getInit(), Depth + 1);
  if (V->hasGlobalStorage() && !V->isLocalVarDecl())
    return !DestinationsUnaliased;
  return true;
}

/// Whether \p ME loads a member through a reference (`r.m`) whose type no
/// destination can have.
bool RegionChecker::readsDisjointMember(const MemberExpr *ME) const {
  const auto *Root =
      dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  return !ME->isArrow() && Root &&
         Root->getDecl()->getType()->isReferenceType() &&
         cannotHoldDestination(ME->getType());
}

/// Whether \p D, when it is a reference (or a structured binding of one),
/// may name (part of) a destination. A reference parameter's referent is
/// not known here; a local reference names what its initializer designates.
bool RegionChecker::referenceMayReadDestination(const ValueDecl *D,
                                                unsigned Depth) {
  if (const auto *B = dyn_cast_or_null<BindingDecl>(D))
    D = B->getDecomposedDecl();
  const auto *V = dyn_cast_or_null<VarDecl>(D);
  if (!V || !V->getType()->isReferenceType())
    return false;
  if (cannotHoldDestination(V->getType().getNonReferenceType()))
    return false;
  if (Depth > 8 || !V->isLocalVarDecl() || V->isStaticLocal() || !V->getInit())
    return true;
  return designatesDestination(V->getInit(), Depth + 1);
}

/// Whether the object that \p E designates may be (part of) a destination:
/// a local's own storage is not; a temporary (what is left of a reference's
/// initialiser that is no lvalue, past its materialisation) is not; memory
/// behind a pointer is decided as mayReadDestination decides it.
bool RegionChecker::designatesDestination(const Expr *E, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (!E->isGLValue())
    return false;
  if (const Expr *Pointer = loadedPointer(E))
    return !cannotHoldDestination(Pointer) &&
           mayReadDestination(Pointer, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return designatesDestination(ME->getBase(), Depth + 1);
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V)
    return true;
  if (V->getType()->isReferenceType())
    return referenceMayReadDestination(V, Depth + 1);
  return V->hasGlobalStorage() && !DestinationsUnaliased;
}

/// An array object \p A (`s`, `p.cam.flags`, `q->arr`): its own storage
/// when reached without a pointer (a variable's, never a destination but
/// for a global array named as one), else memory behind that pointer.
bool RegionChecker::arrayMayBeDestination(const Expr *A, unsigned Depth) {
  while (true) {
    A = A->IgnoreParenCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(A)) {
      if (ME->isArrow())
        return mayReadDestination(ME->getBase(), Depth + 1);
      A = ME->getBase();
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(A)) {
      if (!ASE->getBase()->IgnoreParenCasts()->getType()->isArrayType())
        return mayReadDestination(ASE->getBase(), Depth + 1);
      A = ASE->getBase();
    } else {
      const VarDecl *Root = referencedVar(A);
      if (Root && Root->getType()->isReferenceType())
        return referenceMayReadDestination(Root, Depth + 1);
      return !Root || (Buffers.contains(Root) && Depth > 0);
    }
  }
}

/// Whether the object read through \p Pointer cannot be (part of) a
/// destination by its type: both are scalars of different non-character
/// types (an `int` index array next to `float` gradients), which C++'s
/// aliasing rules keep apart.
bool RegionChecker::cannotHoldDestination(const Expr *Pointer) const {
  QualType T = Pointer->getType();
  if (!T->isPointerType())
    return false;
  return cannotHoldDestination(T->getPointeeType());
}

/// The same for an object of type \p Object.
bool RegionChecker::cannotHoldDestination(QualType Object) const {
  const QualType Read = Object.getCanonicalType().getUnqualifiedType();
  auto Scalar = [](QualType Q) {
    return Q->isBuiltinType() && !Q->isCharType() && !Q->isVoidType() &&
           !Q->isDependentType();
  };
  if (!Scalar(Read) || !TypesKnown || DestinationTypes.empty())
    return false;
  return llvm::all_of(DestinationTypes,
                      [&](QualType D) { return Scalar(D) && D != Read; });
}

/// A pointer declared unaliased (`T *__restrict__`): what is read
/// through it is changed through no other pointer.
bool RegionChecker::isUnaliased(QualType T) {
  return T->isPointerType() && T.isRestrictQualified();
}

/// A parameter of the kernel itself, unchanged by it.
bool RegionChecker::isKernelValue(const VarDecl *V) const {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
  return P && Function && P->getDeclContext() == Function &&
         Function->hasAttr<CUDAGlobalAttr>() &&
         !findWrite(Function->getBody(), P, /*Through=*/false);
}

bool RegionChecker::isPureCall(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return isPureCallee(FD);
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    for (const NamedDecl *D : ULE->decls()) {
      const NamedDecl *Under = D->getUnderlyingDecl();
      const FunctionDecl *FD = dyn_cast<FunctionDecl>(Under);
      if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(Under))
        FD = FTD->getTemplatedDecl();
      if (!FD || !isPureCallee(FD))
        return false;
    }
    return ULE->getNumDecls() > 0;
  }
  return false;
}

/// The storage of a local, a parameter's copy or shared memory, reached
/// through members, array elements and methods that return their own
/// storage (`J[0][1]` of a local matrix).
bool RegionChecker::isPrivateObject(const Expr *E) {
  const VarDecl *Root = objectStorageRoot(E);
  return Root && (Root->hasAttr<CUDASharedAttr>() || Root->isLocalVarDecl() ||
                  isa<ParmVarDecl>(Root));
}

/// A store into this thread's registers or local arrays, or into shared
/// memory: neither can alias a global destination buffer.
bool RegionChecker::isPrivateStore(const Expr *Target) {
  const Expr *E = Target->IgnoreParenCasts();
  const VarDecl *Root = rootVariable(E);
  if (!Root)
    return isPrivateObject(E);
  if (Root->getType()->isReferenceType())
    return false;
  if (Root->hasAttr<CUDASharedAttr>())
    return true;
  if (!Root->isLocalVarDecl() && !isa<ParmVarDecl>(Root))
    return false;
  // Through a pointer variable, the store may reach any memory.
  if (isa<DeclRefExpr>(E))
    return true;
  QualType T = Root->getType();
  return T->isArrayType() || (!T->isPointerType() && !T->isDependentType());
}

} // namespace distwar
