//===- Effects.cpp - what a statement or a call may read and write --------===//

#include "Analysis/Effects.h"
#include "Analysis/EffectsInternal.h"
#include "Analysis/ObjectStorage.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

namespace {

/// Calls deeper than this are not followed: the call is opaque.
constexpr unsigned MaxCallDepth = 8;

class StmtWalker : public RecursiveASTVisitor<StmtWalker> {
public:
  explicit StmtWalker(llvm::function_ref<bool(const Stmt *)> Visit)
      : Visit(Visit) {}
  bool shouldVisitLambdaBody() const { return true; }
  // The calls a range-for makes, default arguments, implicit conversions.
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitStmt(Stmt *S) { return Visit(S); }

private:
  llvm::function_ref<bool(const Stmt *)> Visit;
};

bool isLaunchIndex(const VarDecl *V) {
  return V->hasGlobalStorage() && V->getIdentifier() &&
         llvm::is_contained(
             {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"},
             V->getName());
}

/// A global whose value device code cannot change during a launch.
bool isReadOnlyGlobal(const VarDecl *V) {
  if (V->hasAttr<CUDASharedAttr>())
    return false;
  return V->isConstexpr() || V->getType().isConstQualified();
}

/// A function of the compiler or of CUDA's and the C library's headers
/// whose body is not visible (a builtin, an atomic, printf): it reads and
/// writes only what its arguments point to, never a variable of the user's
/// by name.
bool isLibraryFunction(const FunctionDecl *FD) {
  if (FD->getBuiltinID())
    return true;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

/// `assert`'s failure handler (CUDA's `__assertfail`, the C library's
/// `__assert_fail` as CUDA declares it for the device): it reports and
/// traps, writing no memory the program reads and waiting for no other
/// thread. Other library functions may (a shuffle takes only values).
bool isAssertFailure(const FunctionDecl *FD) {
  return FD->getIdentifier() && !FD->isVariadic() &&
         llvm::is_contained({"__assert_fail", "__assertfail"}, FD->getName()) &&
         llvm::all_of(FD->parameters(), [](const ParmVarDecl *P) {
           QualType T = P->getType();
           return !T->isReferenceType() &&
                  (!T->isPointerType() || T->getPointeeType().isConstQualified());
         });
}

/// What a library function does (see isLibraryFunction), from the
/// compiler's own table where it is a builtin.
CallEffects libraryEffects(const FunctionDecl *FD) {
  CallEffects E;
  E.WritesMemory = E.ReadsMemory = true;
  if (unsigned ID = FD->getBuiltinID()) {
    const Builtin::Context &Info = FD->getASTContext().BuiltinInfo;
    E.WritesMemory = !Info.isConst(ID) && !Info.isPure(ID);
    E.ReadsMemory = !Info.isConst(ID);
  } else {
    E.WritesMemory = !isAssertFailure(FD);
  }
  E.WritesBeyondObject = E.WritesMemory;
  // The special registers: the thread's index, lane, clock.
  E.ReadsLane = FD->getIdentifier() &&
                FD->getName().starts_with("__nvvm_read_ptx_sreg_");
  return E;
}

/// Everything either summary says.
void unite(CallEffects &Into, const CallEffects &E) {
  Into.Opaque |= E.Opaque;
  Into.WritesMemory |= E.WritesMemory;
  Into.WritesBeyondObject |= E.WritesBeyondObject;
  llvm::append_range(Into.WritesBeyondParameters, E.WritesBeyondParameters);
  Into.ReadsMemory |= E.ReadsMemory;
  Into.ReadsBeyondParameters |= E.ReadsBeyondParameters;
  Into.ReadsLane |= E.ReadsLane;
  Into.ReadsShared |= E.ReadsShared;
  Into.OuterReads.insert(E.OuterReads.begin(), E.OuterReads.end());
  Into.OuterWrites.insert(E.OuterWrites.begin(), E.OuterWrites.end());
}

CallEffects effectsAt(const FunctionDecl *FD, unsigned Depth,
                      llvm::SmallPtrSetImpl<const FunctionDecl *> &Active);

/// The functions a call in a template may call: the direct callee, or
/// every declaration an unresolved name may pick (empty: unknown).
llvm::SmallVector<const FunctionDecl *, 4> candidates(const CallExpr *Call) {
  llvm::SmallVector<const FunctionDecl *, 4> Out;
  if (const FunctionDecl *FD = Call->getDirectCallee()) {
    Out.push_back(FD);
    return Out;
  }
  const auto *ULE =
      dyn_cast<UnresolvedLookupExpr>(Call->getCallee()->IgnoreParenImpCasts());
  // Judged by the declarations visible where the template is defined: what
  // argument-dependent lookup adds at instantiation is not seen.
  if (!ULE)
    return Out;
  for (const NamedDecl *D : ULE->decls()) {
    const NamedDecl *Under = D->getUnderlyingDecl();
    const FunctionDecl *FD = dyn_cast<FunctionDecl>(Under);
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(Under))
      FD = FTD->getTemplatedDecl();
    if (!FD)
      return {};
    Out.push_back(FD);
  }
  return Out;
}

/// What \p Call may do: its callee's effects, in a template those of every
/// candidate; opaque where the callee is not known.
CallEffects effectsOfCallAt(const CallExpr *Call, unsigned Depth,
                            llvm::SmallPtrSetImpl<const FunctionDecl *> &Active) {
  llvm::SmallVector<const FunctionDecl *, 4> Callees = candidates(Call);
  if (Callees.empty())
    return effectsAt(nullptr, Depth, Active);
  CallEffects E;
  for (const FunctionDecl *FD : Callees)
    unite(E, effectsAt(FD, Depth, Active));
  return E;
}

/// `a[i]` of an array object (a local's, a member's): no load through a
/// pointer, whatever holds the array is read as it is named.
bool isArrayElement(const Stmt *S) {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(S);
  const auto *Decay =
      ASE ? dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens())
          : nullptr;
  return Decay && Decay->getCastKind() == CK_ArrayToPointerDecay;
}

/// Summarises one function body as its callers see it.
class BodySummary {
public:
  BodySummary(const FunctionDecl *Owner, bool OwnObject, unsigned Depth,
              llvm::SmallPtrSetImpl<const FunctionDecl *> &Active,
              CallEffects &Out)
      : Owner(Owner), OwnObject(OwnObject), Depth(Depth), Active(Active),
        Out(Out) {}

  void visit(const Stmt *S);

private:
  void noteRead(const VarDecl *V);
  void noteLoad(const Expr *Pointer);
  void noteStore(const Expr *Target);
  void noteCall(const CallExpr *Call, const CallEffects &Callee);
  void noteArgumentReads(llvm::ArrayRef<const Expr *> Args,
                         const CallEffects &Callee);
  bool writesOwnLocal(const CallExpr *Call, const CallEffects &Callee) const;
  void merge(const CallEffects &Callee, bool Writes = true);

  const FunctionDecl *Owner;
  bool OwnObject;
  unsigned Depth;
  llvm::SmallPtrSetImpl<const FunctionDecl *> &Active;
  CallEffects &Out;
};

CallEffects effectsAt(const FunctionDecl *FD, unsigned Depth,
                      llvm::SmallPtrSetImpl<const FunctionDecl *> &Active) {
  CallEffects E;
  if (!FD) {
    E.Opaque = true;
    return E;
  }
  if (isKnownMathFunction(FD)) {
    E.ReadsLane = FD->getName().starts_with("__fetch_builtin_");
    return E;
  }
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) && isLibraryFunction(FD))
    return libraryEffects(FD);
  if (Depth > MaxCallDepth || !Def) {
    E.Opaque = true;
    return E;
  }
  // A recursive call does what the body being summarised does, which the
  // summary collects; what it writes through the arguments passed to it is
  // judged at the call.
  WalkLevels &W = walkLevels();
  if (Active.contains(Def)) {
    W.LowestCut = std::min(W.LowestCut, W.Entered.lookup(Def));
    E.WritesMemory = E.WritesBeyondObject = E.ReadsMemory = true;
    return E;
  }
  if (auto It = bodyCache().find({Def, Depth}); It != bodyCache().end())
    return It->second;
  unsigned Level = ++W.Level, Outer = W.Entered.lookup(Def);
  unsigned OuterLowest = std::exchange(W.LowestCut, UINT_MAX);
  W.Entered[Def] = Level;
  Active.insert(Def);
  // A constructor stores into the object it builds (its caller's local or
  // temporary): its own members count as its frame.
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def);
  BodySummary Body(Def, Ctor != nullptr, Depth, Active, E);
  if (Ctor)
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Body.visit(Init->getInit());
  Body.visit(Def->getBody());
  Active.erase(Def);
  unsigned Lowest =
      std::exchange(W.LowestCut, std::min(OuterLowest, W.LowestCut));
  if (Outer)
    W.Entered[Def] = Outer;
  else
    W.Entered.erase(Def);
  --W.Level;
  if (scopeDepth() && Lowest >= Level)
    bodyCache()[{Def, Depth}] = E;
  return E;
}

void BodySummary::merge(const CallEffects &Callee, bool Writes) {
  // What the callee did through its arguments, this body did through
  // whatever it passed: anything, to its own callers.
  Out.Opaque |= Callee.Opaque;
  if (Writes) {
    Out.WritesMemory |= Callee.WritesMemory;
    Out.WritesBeyondObject |= Callee.WritesBeyondObject;
    llvm::append_range(Out.WritesBeyondParameters,
                       Callee.WritesBeyondParameters);
  }
  Out.ReadsMemory |= Callee.ReadsMemory;
  Out.ReadsBeyondParameters |= Callee.ReadsBeyondParameters;
  Out.ReadsLane |= Callee.ReadsLane;
  Out.ReadsShared |= Callee.ReadsShared;
  // A lambda defined here and called here names this frame's variables:
  // those are this function's own locals, not its caller's.
  for (const VarDecl *V : Callee.OuterReads)
    if (!isOwnVariable(V, Owner))
      noteRead(V);
  for (const VarDecl *V : Callee.OuterWrites)
    if (!isOwnVariable(V, Owner))
      Out.OuterWrites.insert(V);
}

/// Whether \p Call, a method writing only its own object, is called on a
/// local of this body (held by value): what it writes dies with the frame.
bool BodySummary::writesOwnLocal(const CallExpr *Call,
                                 const CallEffects &Callee) const {
  const Expr *Object = Call ? callObject(Call) : nullptr;
  const VarDecl *Root = Object ? objectStorageRoot(Object) : nullptr;
  return Callee.WritesMemory && Callee.writesOnlyObject() && Root &&
         isOwnVariable(Root, Owner) && !Root->isStaticLocal() &&
         !Root->hasAttr<CUDASharedAttr>();
}

void BodySummary::noteCall(const CallExpr *Call, const CallEffects &Callee) {
  const bool OwnLocal = writesOwnLocal(Call, Callee);
  merge(Callee, /*Writes=*/!OwnLocal);
  // A method writing its object, called on anything but this body's own
  // object, writes beyond this body's object.
  const Expr *Object = Call ? callObject(Call) : nullptr;
  if (Callee.WritesMemory && !OwnLocal &&
      !(Object && isOwnObjectStorage(Object, Owner)))
    Out.WritesBeyondObject = true;
  // What the callee writes through its arguments, this body writes through
  // what it passed: within its own parameters only if that is where they
  // point.
  if (Callee.WritesMemory && Call)
    for (const Expr *Arg : Call->arguments())
      if (Arg->getType()->isPointerType() &&
          !Arg->getType()->getPointeeType().isConstQualified() &&
          !pointsIntoOwnParameter(Arg, Owner))
        Out.WritesBeyondParameters.push_back(Arg->getType()->getPointeeType());
}

/// What the callee reads through the pointers it is given, this body reads
/// through what it passed: beyond its own parameters unless each points
/// into one of them or nowhere its callers can see.
void BodySummary::noteArgumentReads(llvm::ArrayRef<const Expr *> Args,
                                    const CallEffects &Callee) {
  if (!Callee.ReadsMemory)
    return;
  for (const Expr *Arg : Args)
    if (Arg->getType()->isPointerType() &&
        !pointsIntoOwnParameter(Arg, Owner) && !pointsIntoOwnFrame(Arg, Owner))
      Out.ReadsBeyondParameters = true;
}

void BodySummary::noteRead(const VarDecl *V) {
  if (isOwnVariable(V, Owner)) {
    if (V->getType()->isReferenceType() || V->isStaticLocal() ||
        V->hasAttr<CUDASharedAttr>()) {
      Out.ReadsMemory = true;
      Out.ReadsShared |= V->hasAttr<CUDASharedAttr>();
      // A reference parameter reads what the caller passed; a local
      // reference or a static, what nothing at the call shows.
      Out.ReadsBeyondParameters |=
          !isa<ParmVarDecl>(V) && !V->hasAttr<CUDASharedAttr>();
    }
    return;
  }
  if (V->isLocalVarDecl() || isa<ParmVarDecl>(V)) {
    // A capture: the enclosing function's variable, read at the call.
    Out.OuterReads.insert(V);
    if (V->getType()->isReferenceType()) {
      Out.ReadsMemory = true;
      Out.ReadsBeyondParameters = true;
    }
    return;
  }
  if (isLaunchIndex(V)) {
    Out.ReadsLane = true;
    return;
  }
  if (!V->hasGlobalStorage() || isReadOnlyGlobal(V))
    return;
  Out.ReadsMemory = true;
  Out.ReadsShared |= V->hasAttr<CUDASharedAttr>();
  // Constant and shared memory are never a global destination.
  if (!V->hasAttr<CUDAConstantAttr>() && !V->hasAttr<CUDASharedAttr>())
    Out.ReadsBeyondParameters = true;
}

/// A load through \p Pointer: what it reads is known from the call's
/// arguments only when it is one of the function's own pointer parameters.
void BodySummary::noteLoad(const Expr *Pointer) {
  Out.ReadsMemory = true;
  // `*this`: the object the call names, which its caller reads as it
  // names it (as a member read through `this` is). Not `*this->p`.
  const bool ThisObject = isa<CXXThisExpr>(Pointer->IgnoreParenImpCasts()) &&
                         isOwnObjectStorage(Pointer, Owner);
  if (!pointsIntoOwnParameter(Pointer, Owner) && !ThisObject)
    Out.ReadsBeyondParameters = true;
}

void BodySummary::noteStore(const Expr *Target) {
  const Expr *E = Target->IgnoreParenCasts();
  // `m[1][2] = x` of a local matrix is a store into the local too.
  const VarDecl *Root = storageRoot(E) ? storageRoot(E) : objectStorageRoot(E);
  if (Root && !Root->getType()->isReferenceType() && !Root->isStaticLocal() &&
      !Root->hasAttr<CUDASharedAttr>()) {
    if (isOwnVariable(Root, Owner))
      return;
    if (!Root->hasGlobalStorage()) {
      Out.OuterWrites.insert(Root); // a capture
      return;
    }
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      OwnObject && ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
      isa<FieldDecl>(ME->getMemberDecl()) && !ME->getType()->isReferenceType())
    return;
  Out.WritesMemory = true;
  // A method's store into its own object: its caller decides whose that is.
  Out.WritesBeyondObject |= !isOwnObjectStorage(E, Owner);
  const Expr *Pointer = loadedPointer(E);
  if (!Pointer || !pointsIntoOwnParameter(Pointer, Owner))
    Out.WritesBeyondParameters.push_back(E->getType());
}

void BodySummary::visit(const Stmt *S) {
  if (!S)
    return;
  if (isa<AsmStmt, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr>(S)) {
    Out.Opaque = true;
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      noteRead(V);
  } else if (const Expr *Pointer = loadedPointer(S);
             Pointer && !isArrayElement(S)) {
    noteLoad(Pointer);
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && isBuiltinOperatorCall(Op)) {
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
        Op->getOperator() == OO_MinusMinus)
      noteStore(Op->getArg(0));
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const CallEffects Callee = effectsOfCallAt(Call, Depth + 1, Active);
    noteCall(Call, Callee);
    noteArgumentReads({Call->getArgs(), Call->getNumArgs()}, Callee);
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    if (!Construct->getConstructor()->isTrivial()) {
      const CallEffects Callee =
          effectsAt(Construct->getConstructor(), Depth + 1, Active);
      noteCall(nullptr, Callee);
      noteArgumentReads({Construct->getArgs(), Construct->getNumArgs()},
                        Callee);
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
             BO && BO->isAssignmentOp()) {
    noteStore(BO->getLHS());
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementDecrementOp()) {
    noteStore(UO->getSubExpr());
  }
  for (const Stmt *Child : S->children())
    visit(Child);
}

} // namespace

CallEffects effectsOfCallee(const FunctionDecl *FD) {
  if (auto It = calleeCache().find(FD); It != calleeCache().end())
    return It->second;
  // Summarising a body asks other questions (is a parameter changed?) that
  // may come back here: a function already being summarised is recursion.
  static llvm::SmallPtrSet<const FunctionDecl *, 8> InProgress;
  if (FD && !InProgress.insert(FD).second) {
    CallEffects E;
    E.WritesMemory = E.WritesBeyondObject = E.ReadsMemory = true;
    return E;
  }
  llvm::SmallPtrSet<const FunctionDecl *, 8> Active;
  CallEffects E = effectsAt(FD, 0, Active);
  InProgress.erase(FD);
  if (scopeDepth())
    calleeCache()[FD] = E;
  return E;
}

CallEffects effectsOfCall(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return effectsOfCallee(FD);
  llvm::SmallPtrSet<const FunctionDecl *, 8> Active;
  return effectsOfCallAt(Call, 0, Active);
}

bool callMayWrite(const CallExpr *Call, const VarDecl *V) {
  CallEffects E = effectsOfCall(Call);
  if (E.OuterWrites.contains(V))
    return true;
  if (!(E.Opaque || E.WritesMemory) || !escapes(V))
    return false;
  const ASTContext &Ctx = V->getASTContext();
  if (E.Opaque || llvm::any_of(E.WritesBeyondParameters, [&](QualType T) {
        return T.isNull() || typesMayAlias(T, V->getType(), Ctx);
      }))
    return true;
  // Only what its arguments point to, of the types they point to.
  return llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
    QualType T = Arg->getType();
    return T->isPointerType() &&
           !T->getPointeeType().isConstQualified() &&
           typesMayAlias(T->getPointeeType(), V->getType(), V->getASTContext());
  });
}

bool isOwnVariable(const VarDecl *V, const FunctionDecl *FD) {
  if (!V || !FD || (V->hasGlobalStorage() && !V->isStaticLocal()))
    return false;
  const DeclContext *DC = V->getDeclContext();
  return DC && (DC->Equals(FD) || FD->Encloses(DC));
}

bool forEachStmt(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Visit) {
  if (!S)
    return true;
  return StmtWalker(Visit).TraverseStmt(const_cast<Stmt *>(S));
}


} // namespace distwar
