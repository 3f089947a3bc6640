//===- GroupSafety.cpp - may a group's atomics be deferred? ---------------===//

#include "Decide/GroupSafety.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "Find/OpaqueKeys.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

using namespace clang;

namespace distwar {

/// `p` as a condition, `p != nullptr`, `p == 0`, `NULL != p`: a test of a
/// pointer variable against null.
static bool isNullTestOfVariable(const Stmt *S, ASTContext &Ctx) {
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

namespace {

/// Walks statements looking for what would make deferring atomics wrong.
class RegionChecker {
public:
  RegionChecker(const std::vector<AtomicSite> &Sites,
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

  /// Checks \p S; with \p BeforeAnyAdd, \p S runs before any atomic of the
  /// group (the group's first statement is its first atomic), so what it
  /// reads cannot miss a deferred add.
  Reason check(const Stmt *S, bool BeforeAnyAdd = false) {
    LoadsMatter = !BeforeAnyAdd;
    visit(S, /*AddressOfAtomic=*/false);
    LoadsMatter = true;
    return Found;
  }

private:
  void fail(Reason R) {
    if (Found == Reason::None)
      Found = R;
  }

  void visit(const Stmt *S, bool AddressOfAtomic) {
    if (!S || Found != Reason::None)
      return;
    // A jump from outside into the region would run only its tail: a lane
    // could then set a later field without the earlier ones.
    if (isa<LabelStmt>(S) || (isa<SwitchCase>(S) && !SwitchDepth))
      return fail(Reason::JumpIntoRegion);
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
    if (const Expr *Pointer = loadedPointer(S);
        Pointer && LoadsMatter && !cannotHoldDestination(Pointer) &&
        mayReadDestination(Pointer))
      return fail(Reason::ReadMayAlias);
    // `p.f` where p holds pointer-member buffers: only those members are
    // destination buffers.
    if (const auto *ME = dyn_cast<MemberExpr>(S); ME && !ME->isArrow())
      if (const auto *Base =
              dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (Buffers.contains(dyn_cast<VarDecl>(Base->getDecl())) &&
            !Fields.empty()) {
          if (Fields.contains(dyn_cast<FieldDecl>(ME->getMemberDecl())) &&
              !AddressOfAtomic)
            fail(Reason::BufferAccessedBetween);
          return;
        }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && Buffers.contains(VD) && !AddressOfAtomic)
        fail(Reason::BufferAccessedBetween);
      return;
    }
    if (isa<AsmStmt>(S))
      return fail(Reason::CallBetween);
    // Testing a buffer pointer for null reads no memory (conditional fields).
    if (isNullTestOfVariable(S, Function->getASTContext()))
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // `a = b` of a trivially copyable struct (float2, a user's POD) is a
      // store, whatever the call around it.
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
          Op && isTrivialAssignment(Op)) {
        if (!isPrivateStore(Op->getArg(0)))
          return fail(Reason::StoreBetween);
        visitAddress(Op->getArg(0), AddressOfAtomic);
        return visit(Op->getArg(1), false);
      }
      if (CommutingAtomics.contains(Call)) {
        // Unused-result atomicAdds commute with the group's deferred adds.
        visit(Call->getArg(0), true);
        visit(Call->getArg(1), false);
        return;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
          Op && isBuiltinOperatorCall(Op)) {
        // A dependent operator on arithmetic operands: the builtin one in
        // every instantiation.
        if ((Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
             Op->getOperator() == OO_MinusMinus) &&
            !isPrivateStore(Op->getArg(0)))
          return fail(Reason::StoreBetween);
        for (const Expr *Arg : Op->arguments())
          visit(Arg, AddressOfAtomic);
        return;
      }
      if (!isPureCall(Call))
        return fail(Reason::CallBetween);
      // A pure function may still read through the pointers it is given.
      if (LoadsMatter && !readsOnlyArguments(Call->getDirectCallee()))
        for (const Expr *Arg : Call->arguments())
          if (Arg->getType()->isPointerType() && mayReadDestination(Arg))
            return fail(Reason::ReadMayAlias);
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
      if (!Construct->getConstructor()->isTrivial() &&
          !isPureCallee(Construct->getConstructor()))
        return fail(Reason::CallBetween);
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && !isPrivateStore(BO->getLHS()))
      return fail(Reason::StoreBetween);
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp() && !isPrivateStore(UO->getSubExpr()))
      return fail(Reason::StoreBetween);
    for (const Stmt *Child : S->children())
      visit(Child, AddressOfAtomic);
  }

  /// The operand of `&`: its own subscripts and members compute an
  /// address, they do not load; its pointers and indices are read.
  void visitAddress(const Expr *E, bool AddressOfAtomic) {
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

  static bool isTrivialAssignment(const CXXOperatorCallExpr *Op) {
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
  bool mayReadDestination(const Expr *P, unsigned Depth = 0) {
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

  /// An array object \p A (`s`, `p.cam.flags`, `q->arr`): its own storage
  /// when reached without a pointer (a variable's, never a destination but
  /// for a global array named as one), else memory behind that pointer.
  bool arrayMayBeDestination(const Expr *A, unsigned Depth) {
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
        return !Root || (Buffers.contains(Root) && Depth > 0);
      }
    }
  }

  /// Whether the object read through \p Pointer cannot be (part of) a
  /// destination by its type: both are scalars of different non-character
  /// types (an `int` index array next to `float` gradients), which C++'s
  /// aliasing rules keep apart.
  bool cannotHoldDestination(const Expr *Pointer) const {
    QualType T = Pointer->getType();
    if (!T->isPointerType())
      return false;
    QualType Read = T->getPointeeType().getCanonicalType().getUnqualifiedType();
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
  static bool isUnaliased(QualType T) {
    return T->isPointerType() && T.isRestrictQualified();
  }

  /// A parameter of the kernel itself, unchanged by it.
  bool isKernelValue(const VarDecl *V) const {
    const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
    return P && Function && P->getDeclContext() == Function &&
           Function->hasAttr<CUDAGlobalAttr>() &&
           !findWrite(Function->getBody(), P, /*Through=*/false);
  }

  static bool isPureCall(const CallExpr *Call) {
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

  /// A store into this thread's registers or local arrays, or into shared
  /// memory: neither can alias a global destination buffer.
  static bool isPrivateStore(const Expr *Target) {
    const Expr *E = Target->IgnoreParenCasts();
    const VarDecl *Root = rootVariable(E);
    if (!Root || Root->getType()->isReferenceType())
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

public:
  llvm::DenseSet<const FieldDecl *> Fields;

private:
  llvm::DenseSet<const VarDecl *> Buffers;
  const FunctionDecl *Function;
  /// Every destination is a `__restrict__` kernel parameter.
  bool DestinationsUnaliased = false;
  /// The types of the destinations' objects, canonical and unqualified.
  llvm::SmallVector<QualType, 4> DestinationTypes;
  bool TypesKnown = true;
  bool LoadsMatter = true;
  llvm::DenseSet<const CallExpr *> CommutingAtomics;
  Reason Found = Reason::None;
  unsigned SwitchDepth = 0;
};

} // namespace

/// The statements of the group's region, in order.
static llvm::ArrayRef<Stmt *> regionOf(const SiteGroup &G) {
  llvm::ArrayRef<Stmt *> Body(G.Scope->body_begin(), G.Scope->body_end());
  size_t Begin = 0, End = 0;
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] == G.First)
      Begin = I;
    if (Body[I] == G.Last)
      End = I;
  }
  return Body.slice(Begin, End - Begin + 1);
}

const Stmt *findIterationExit(const SiteGroup &G,
                              llvm::ArrayRef<const ContinueStmt *> Converted) {
  for (const Stmt *S : regionOf(G))
    if (const Stmt *Exit = firstLoopExit(S, Converted))
      return Exit;
  return nullptr;
}

/// Between the site and the group's block only blocks, the site's own
/// channel loop, ifs on grid-uniform conditions (conditional fields: the
/// slot keeps a null address when the field is not written) and the group's
/// lane-dependent ifs (LaneSet fields) may lie; anything else makes the site
/// conditional.
static bool isUnconditionalIn(const AtomicSite &S, const SiteGroup &G,
                              UniformityAnalysis &U) {
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    const Stmt *Below = Child;
    Child = A;
    if (A == G.Scope)
      return true;
    if (isLaneIfAbove(A, Below, G))
      continue;
    if (isa<CompoundStmt, ExprWithCleanups, ParenExpr, CStyleCastExpr>(A) ||
        isInvocationWrapper(S, A))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(A);
        If && Below != If->getCond() && !If->getInit() &&
        !If->getConditionVariable() && U.isGridUniform(If->getCond()))
      continue;
    if (S.Channel && A == S.Channel->Loop)
      continue;
    if (const auto *AS = dyn_cast<AttributedStmt>(A);
        AS && S.Channel && AS->getSubStmt() == S.Channel->Loop)
      continue;
    return false;
  }
  return false;
}

/// The call of \p G's atomic that statement \p S is, alone, or null.
static const CallExpr *siteCallIn(const std::vector<AtomicSite> &Sites,
                                  const SiteGroup &G, const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(E))
    E = EWC->getSubExpr();
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  for (size_t I : G.Sites)
    if (Sites[I].Call == E)
      return Sites[I].Call;
  return nullptr;
}

/// Whether region statement \p S may change key variable \p V. A key that
/// is the buffer pointer changes only with the pointer's own storage (the
/// group's atomics store through it). The group's own atomic calls take
/// their address by value: only their arguments are looked at (in a
/// template, a call not yet resolved might otherwise take \p V by
/// reference).
static bool writesKeyVariable(const std::vector<AtomicSite> &Sites,
                              const SiteGroup &G, const Stmt *S,
                              const VarDecl *V) {
  const AtomicSite &First = Sites[G.Sites.front()];
  auto Writes = [&](const Stmt *X) {
    return First.KeyIsBuffer ? findStorageWrite(X, V) != nullptr
                             : findWrite(X, V, /*Through=*/true) != nullptr;
  };
  if (const CallExpr *Call = siteCallIn(Sites, G, S))
    return llvm::any_of(Call->arguments(), Writes);
  return Writes(S);
}

Reason checkGroupSafety(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                        const SiteGroup &G,
                        llvm::ArrayRef<const ContinueStmt *> Converted) {
  if (G.Why != Reason::None)
    return G.Why;
  llvm::DenseSet<const VarDecl *> Buffers;
  UniformityAnalysis U(Ctx, G.Function);
  for (size_t I : G.Sites) {
    if (!isUnconditionalIn(Sites[I], G, U))
      return Reason::ConditionalSite;
    Buffers.insert(Sites[I].Buffer);
  }
  if (findIterationExit(G, Converted))
    return Reason::LeavesIteration;
  // Opaque call keys differing in constant arguments (one texel's channels)
  // share a primitive only when every lane evaluates the same call.
  const Expr *FirstKey = Sites[G.Sites.front()].Key;
  if (llvm::any_of(
          G.Sites,
          [&](size_t I) { return keysDiffer(FirstKey, Sites[I].Key, Ctx); }) &&
      !U.isUniform(FirstKey))
    return Reason::OpaqueKeyVaries;

  // The key is evaluated again at the reduction: its variables must be
  // visible before the region and unchanged inside it.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation RegionBegin = G.First->getBeginLoc();
  const AtomicSite &FirstSite = Sites[G.Sites.front()];
  llvm::SmallVector<const VarDecl *, 4> KeyVars;
  collectVars(FirstSite.Key, KeyVars);
  for (const VarDecl *V : KeyVars) {
    if (V->isLocalVarDecl() &&
        !SM.isBeforeInTranslationUnit(V->getLocation(), RegionBegin))
      return Reason::NotVisibleAtBatch;
    for (const Stmt *S : regionOf(G))
      if (writesKeyVariable(Sites, G, S, V))
        return Reason::KeyModified;
  }
  // Trip counts are spelled in the batch declaration, before the region.
  if (Reason R = tripCountsVisibleAt(Ctx, Sites, G, RegionBegin);
      R != Reason::None)
    return R;

  // The reduction after the region evaluates the addresses and the key
  // again: a declaration inside the region must not hide a name they use.
  llvm::SmallVector<const Stmt *, 16> Region(regionOf(G).begin(),
                                             regionOf(G).end());
  llvm::SmallVector<const VarDecl *, 8> Declared;
  declaredIn(Region, Declared);
  if (Reason R = checkNamesKept(Sites, G, Declared); R != Reason::None)
    return R;

  RegionChecker Checker(Sites, std::move(Buffers), G.Function);
  for (size_t I : G.Sites)
    if (Sites[I].BufferField)
      Checker.Fields.insert(Sites[I].BufferField);
  for (const Stmt *S : regionOf(G))
    if (Reason R = Checker.check(S, S == G.First && siteCallIn(Sites, G, S));
        R != Reason::None)
      return R;
  return Reason::None;
}

/// The names the reduction evaluates again: each site's address and key
/// and the conditions between the site and the group's block.
static void
collectReevaluatedRefs(const AtomicSite &S, const CompoundStmt *Scope,
                       llvm::SmallVectorImpl<const DeclRefExpr *> &Out) {
  std::function<void(const Stmt *)> Collect = [&](const Stmt *E) {
    if (!E)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      Out.push_back(DRE);
    for (const Stmt *Child : E->children())
      Collect(Child);
  };
  Collect(S.Call->getArg(0));
  Collect(S.Key);
  for (const Stmt *A : S.Ancestors) {
    if (A == Scope)
      break;
    if (const auto *If = dyn_cast<IfStmt>(A))
      Collect(If->getCond());
  }
}

Reason checkNamesKept(const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                      llvm::ArrayRef<const VarDecl *> Declared) {
  if (Declared.empty())
    return Reason::None;
  for (size_t I : G.Sites) {
    llvm::SmallVector<const DeclRefExpr *, 16> Refs;
    collectReevaluatedRefs(Sites[I], G.Scope, Refs);
    for (const DeclRefExpr *Ref : Refs)
      for (const VarDecl *V : Declared)
        if (V != Ref->getDecl() &&
            V->getDeclName() == Ref->getDecl()->getDeclName())
          return Reason::NameShadowed;
  }
  return Reason::None;
}

void declaredIn(llvm::ArrayRef<const Stmt *> Stmts,
                llvm::SmallVectorImpl<const VarDecl *> &Out) {
  for (const Stmt *S : Stmts)
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Out.push_back(V);
}

Reason checkStatementsBetween(const std::vector<AtomicSite> &Sites,
                              const SiteGroup &G,
                              llvm::ArrayRef<const Stmt *> Stmts) {
  llvm::DenseSet<const VarDecl *> Buffers;
  for (size_t I : G.Sites)
    Buffers.insert(Sites[I].Buffer);
  RegionChecker Checker(Sites, std::move(Buffers), G.Function);
  for (const Stmt *S : Stmts)
    if (Reason R = Checker.check(S); R != Reason::None)
      return R;
  for (const Stmt *S : Stmts)
    if (firstLoopExit(S))
      return Reason::LeavesIteration;
  return Reason::None;
}

/// The batch's size is spelled with its channel loops' trip counts where
/// the batch is declared, at \p BatchAt: they may use no local declared
/// there or later (an invalid \p BatchAt: no local at all).
Reason tripCountsVisibleAt(ASTContext &Ctx,
                           const std::vector<AtomicSite> &Sites,
                           const SiteGroup &G, SourceLocation BatchAt) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I : G.Sites) {
    if (!Sites[I].Channel)
      continue;
    llvm::SmallVector<const VarDecl *, 4> BoundVars;
    collectVars(Sites[I].Channel->Upper, BoundVars);
    collectVars(Sites[I].Channel->Lower, BoundVars);
    for (const VarDecl *V : BoundVars)
      if (V->isLocalVarDecl() &&
          (BatchAt.isInvalid() ||
           !SM.isBeforeInTranslationUnit(V->getLocation(), BatchAt)))
        return Reason::NotVisibleAtBatch;
  }
  return Reason::None;
}

} // namespace distwar
