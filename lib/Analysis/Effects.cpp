//===- Effects.cpp - what a statement or a call may read and write --------===//

#include "Analysis/Effects.h"
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

/// What one translation unit's analysis remembers; cleared by EffectsScope.
llvm::DenseMap<const VarDecl *, bool> &escapeCache() {
  static llvm::DenseMap<const VarDecl *, bool> Cache;
  return Cache;
}
llvm::DenseMap<const FunctionDecl *, CallEffects> &calleeCache() {
  static llvm::DenseMap<const FunctionDecl *, CallEffects> Cache;
  return Cache;
}
/// Results are remembered only inside an EffectsScope: outside one, the
/// declarations they are keyed by may belong to an AST already freed.
unsigned &scopeDepth() {
  static unsigned Depth = 0;
  return Depth;
}

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

/// A handle through which the caller may later change the object: a
/// reference or a pointer to non-const.
bool isMutableHandle(QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  return T->isPointerType() && !T->getPointeeType().isConstQualified();
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

/// What a library function does (see isLibraryFunction), from the
/// compiler's own table where it is a builtin.
CallEffects libraryEffects(const FunctionDecl *FD) {
  CallEffects E;
  E.WritesMemory = E.ReadsMemory = true;
  if (unsigned ID = FD->getBuiltinID()) {
    const Builtin::Context &Info = FD->getASTContext().BuiltinInfo;
    E.WritesMemory = !Info.isConst(ID) && !Info.isPure(ID);
    E.ReadsMemory = !Info.isConst(ID);
  }
  // The special registers: the thread's index, lane, clock.
  E.ReadsLane = FD->getIdentifier() &&
                FD->getName().starts_with("__nvvm_read_ptx_sreg_");
  return E;
}

/// The scalar type an access of type \p T reads or writes, for C++'s
/// aliasing rules: enumerations as their underlying integer, integers
/// regardless of sign; null where any object may be reached (a class, a
/// character type, an incomplete or dependent type).
QualType accessType(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  while (const ArrayType *A = Ctx.getAsArrayType(T))
    T = A->getElementType().getCanonicalType().getUnqualifiedType();
  if (const auto *E = T->getAs<EnumType>())
    T = E->getDecl()->getIntegerType().getCanonicalType();
  // Pointers of every type as one: the rules that keep them apart have
  // exceptions (void *, character pointers) not worth telling apart here.
  if (T->isPointerType())
    return Ctx.VoidPtrTy;
  if (T.isNull() || T->isDependentType() || !T->isBuiltinType() ||
      T->isCharType() || T->isVoidType())
    return QualType();
  if (T->isUnsignedIntegerType())
    T = const_cast<ASTContext &>(Ctx).getCorrespondingSignedType(T);
  return T;
}

/// Whether an access of type \p Access may touch an object of type
/// \p Object: two different scalar types never alias (C++'s rules).
bool typesMayAlias(QualType Access, QualType Object, const ASTContext &Ctx,
                   unsigned Depth = 0) {
  // A struct is reached through its members (or as a whole).
  QualType Canon = Object.getCanonicalType().getUnqualifiedType();
  while (const ArrayType *A = Ctx.getAsArrayType(Canon))
    Canon = A->getElementType().getCanonicalType().getUnqualifiedType();
  if (const auto *RD = Canon->getAsRecordDecl();
      RD && !RD->isUnion() && RD->isCompleteDefinition() && Depth < 4 &&
      !(isa<CXXRecordDecl>(RD) && cast<CXXRecordDecl>(RD)->getNumBases())) {
    if (Access.getCanonicalType().getUnqualifiedType() == Canon)
      return true;
    return llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
      return typesMayAlias(Access, F->getType(), Ctx, Depth + 1);
    });
  }
  QualType A = accessType(Access, Ctx), O = accessType(Object, Ctx);
  return A.isNull() || O.isNull() || A == O;
}

/// Everything either summary says.
void unite(CallEffects &Into, const CallEffects &E) {
  Into.Opaque |= E.Opaque;
  Into.WritesMemory |= E.WritesMemory;
  llvm::append_range(Into.WritesBeyondParameters, E.WritesBeyondParameters);
  Into.ReadsMemory |= E.ReadsMemory;
  Into.ReadsBeyondParameters |= E.ReadsBeyondParameters;
  Into.ReadsLane |= E.ReadsLane;
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
  bool isOwnPointerParameter(const Expr *Pointer) const;
  void merge(const CallEffects &Callee);

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
  if (Active.contains(Def)) {
    E.WritesMemory = E.ReadsMemory = true;
    return E;
  }
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
  return E;
}

void BodySummary::merge(const CallEffects &Callee) {
  // What the callee did through its arguments, this body did through
  // whatever it passed: anything, to its own callers.
  Out.Opaque |= Callee.Opaque;
  Out.WritesMemory |= Callee.WritesMemory;
  llvm::append_range(Out.WritesBeyondParameters,
                     Callee.WritesBeyondParameters);
  Out.ReadsMemory |= Callee.ReadsMemory;
  Out.ReadsBeyondParameters |= Callee.ReadsBeyondParameters;
  Out.ReadsLane |= Callee.ReadsLane;
  // A lambda defined here and called here names this frame's variables:
  // those are this function's own locals, not its caller's.
  for (const VarDecl *V : Callee.OuterReads)
    if (!isOwnVariable(V, Owner))
      noteRead(V);
  for (const VarDecl *V : Callee.OuterWrites)
    if (!isOwnVariable(V, Owner))
      Out.OuterWrites.insert(V);
}

void BodySummary::noteCall(const CallExpr *Call, const CallEffects &Callee) {
  merge(Callee);
  // What the callee writes through its arguments, this body writes through
  // what it passed: within its own parameters only if that is where they
  // point.
  if (Callee.WritesMemory && Call)
    for (const Expr *Arg : Call->arguments())
      if (Arg->getType()->isPointerType() &&
          !Arg->getType()->getPointeeType().isConstQualified() &&
          !isOwnPointerParameter(Arg))
        Out.WritesBeyondParameters.push_back(Arg->getType()->getPointeeType());
}

void BodySummary::noteRead(const VarDecl *V) {
  if (isOwnVariable(V, Owner)) {
    if (V->getType()->isReferenceType() || V->isStaticLocal() ||
        V->hasAttr<CUDASharedAttr>()) {
      Out.ReadsMemory = true;
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
  // Constant and shared memory are never a global destination.
  if (!V->hasAttr<CUDAConstantAttr>() && !V->hasAttr<CUDASharedAttr>())
    Out.ReadsBeyondParameters = true;
}

/// A load through \p Pointer: what it reads is known from the call's
/// arguments only when it is one of the function's own pointer parameters.
void BodySummary::noteLoad(const Expr *Pointer) {
  Out.ReadsMemory = true;
  if (!isOwnPointerParameter(Pointer))
    Out.ReadsBeyondParameters = true;
}

/// `p`, `p + i`, `&p[i]` for one of the function's own pointer parameters
/// (never changed here: a changed one may point anywhere).
bool BodySummary::isOwnPointerParameter(const Expr *Pointer) const {
  const Expr *P = Pointer->IgnoreParenImpCasts();
  while (true) {
    if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isAdditiveOp())
      P = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                    : BO->getRHS())
              ->IgnoreParenImpCasts();
    else if (const auto *UO = dyn_cast<UnaryOperator>(P);
             UO && UO->getOpcode() == UO_AddrOf)
      P = UO->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P))
      P = ASE->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(P);
  const auto *Param = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return Param && Param->getType()->isPointerType() &&
         isOwnVariable(Param, Owner) &&
         !findWrite(Owner->getBody(), Param, /*Through=*/false);
}

void BodySummary::noteStore(const Expr *Target) {
  const Expr *E = Target->IgnoreParenCasts();
  if (const VarDecl *Root = storageRoot(E);
      Root && !Root->getType()->isReferenceType() && !Root->isStaticLocal() &&
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
  const Expr *Pointer = loadedPointer(E);
  if (!Pointer || !isOwnPointerParameter(Pointer))
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
    noteCall(Call, effectsOfCallAt(Call, Depth + 1, Active));
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    if (!Construct->getConstructor()->isTrivial())
      noteCall(nullptr, effectsAt(Construct->getConstructor(), Depth + 1, Active));
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

/// Whether \p E reaches its object through a pointer, a reference or a
/// call: such an lvalue may be any object whose address has escaped.
bool isIndirect(const Expr *E) {
  E = E->IgnoreParenCasts();
  // Objects of their own, never a variable's storage.
  if (isa<StringLiteral, PredefinedExpr, CompoundLiteralExpr,
          MaterializeTemporaryExpr>(E))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return !V || V->getType()->isReferenceType();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() || isIndirect(ME->getBase());
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return !ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() ||
           isIndirect(ASE->getBase()->IgnoreParenImpCasts());
  return true;
}

/// Whether the result of \p Call, a reference or a pointer, may lead into
/// \p V: an argument or the object designates V, the body names V (a
/// lambda's capture), or the callee is unknown and V escapes.
bool callMayLeadTo(const CallExpr *Call, const VarDecl *V, bool Through,
                   bool StorageOnly) {
  for (const Expr *Arg : Call->arguments())
    if (Arg->isGLValue() ? mayDesignate(Arg, V, Through, StorageOnly)
                         : (Arg->getType()->isPointerType() &&
                            rootVariable(Arg) == V))
      return true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (mayDesignate(MC->getImplicitObjectArgument(), V, Through, StorageOnly))
      return true;
  CallEffects E = effectsOfCall(Call);
  return E.OuterReads.contains(V) || E.OuterWrites.contains(V) ||
         (escapes(V) && typesMayAlias(Call->getType(), V->getType(),
                                      V->getASTContext()));
}

/// Whether \p Call, a method call or a call of a function taking
/// arguments by mutable handle, lets \p V's storage be reached later: a
/// non-const method of V (which may return or keep `this`), a mutable
/// reference parameter bound to V.
bool callLetsEscape(const CallExpr *Call, const VarDecl *V) {
  // A template's operator on arithmetic or pointer operands is the builtin
  // one: only its `&` takes an address.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && isBuiltinOperatorCall(Op))
    return Op->getOperator() == OO_Amp && Op->getNumArgs() == 1 &&
           storageRoot(Op->getArg(0)) == V;
  const FunctionDecl *FD = Call->getDirectCallee();
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(FD);
  const Expr *Object = nullptr;
  unsigned Shift = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(Call) && M && !M->isStatic() &&
           Call->getNumArgs() > 0) {
    Object = Call->getArg(0);
    Shift = 1;
  }
  if (Object && storageRoot(Object) == V && M && !M->isConst() &&
      isMutableHandle(M->getReturnType()))
    return true;
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (storageRoot(Arg) != V || !Arg->isGLValue())
      continue;
    if (!FD || I - Shift >= FD->getNumParams() ||
        isMutableHandle(FD->getParamDecl(I - Shift)->getType()))
      return true;
  }
  return false;
}

/// Whether pointer parameter \p P of \p FD is only dereferenced (`*p`,
/// `p[i]`, `p->m`): the address it is given goes nowhere else.
bool onlyDereferenced(const ParmVarDecl *P, const FunctionDecl *FD) {
  const Stmt *Body = FD->getBody();
  if (!Body || !P->getType()->isPointerType())
    return false;
  llvm::SmallPtrSet<const Expr *, 8> Dereferenced;
  auto Note = [&](const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        DRE && DRE->getDecl() == P)
      Dereferenced.insert(DRE);
  };
  return forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_Deref)
      Note(UO->getSubExpr());
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
      Note(ASE->getBase());
    else if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
      Note(ME->getBase());
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    return !DRE || DRE->getDecl() != P || Dereferenced.contains(DRE);
  });
}

/// The `&V` arguments of \p Call whose parameter is only dereferenced in
/// the callee's body: the call may change V (a write there), but V's
/// address goes no further.
void noteLocalAddresses(const CallExpr *Call, const VarDecl *V,
                        llvm::SmallPtrSetImpl<const Expr *> &Harmless) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || isa<CXXOperatorCallExpr>(Call))
    return;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
    if (const auto *UO =
            dyn_cast<UnaryOperator>(Call->getArg(I)->IgnoreParenImpCasts());
        UO && UO->getOpcode() == UO_AddrOf &&
        storageRoot(UO->getSubExpr()) == V &&
        onlyDereferenced(Def->getParamDecl(I), Def))
      Harmless.insert(UO);
}

/// The escape points of \p V in \p Body (see escapes()).
bool computeEscapes(const VarDecl *V, const Stmt *Body) {
  llvm::SmallPtrSet<const Expr *, 8> IndexedArrays, Harmless;
  return !forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
      IndexedArrays.insert(ASE->getBase()->IgnoreParens());
    if (const auto *Call = dyn_cast<CallExpr>(S))
      noteLocalAddresses(Call, V, Harmless);
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_AddrOf && !Harmless.contains(UO) &&
        storageRoot(UO->getSubExpr()) == V)
      return false;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
        ICE && ICE->getCastKind() == CK_ArrayToPointerDecay &&
        !IndexedArrays.contains(ICE) && storageRoot(ICE->getSubExpr()) == V)
      return false;
    if (const auto *D = dyn_cast<DeclStmt>(S))
      for (const Decl *X : D->decls())
        if (const auto *VD = dyn_cast<VarDecl>(X);
            VD && isMutableHandle(VD->getType()) &&
            VD->getType()->isReferenceType() && VD->getInit() &&
            storageRoot(VD->getInit()) == V)
          return false;
    // A by-reference capture lets the lambda's body change V, wherever the
    // lambda is called from; a body that only reads V changes nothing.
    if (const auto *L = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
            C.getCapturedVar() == V) {
          CallEffects E = effectsOfCallee(L->getCallOperator());
          if (E.Opaque || E.OuterWrites.contains(V))
            return false;
        }
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && callLetsEscape(Call, V))
      return false;
    return true;
  });
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
    E.WritesMemory = E.ReadsMemory = true;
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

bool escapes(const VarDecl *V) {
  if (!V->isLocalVarDecl() && !isa<ParmVarDecl>(V))
    return true;
  if (auto It = escapeCache().find(V); It != escapeCache().end())
    return It->second;
  // A question that comes back to V while it is being answered: escaped.
  static llvm::SmallPtrSet<const VarDecl *, 8> InProgress;
  if (!InProgress.insert(V).second)
    return true;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  bool Result = !Body || computeEscapes(V, Body);
  InProgress.erase(V);
  if (scopeDepth())
    escapeCache()[V] = Result;
  return Result;
}

bool mayDesignate(const Expr *E, const VarDecl *V, bool Through,
                  bool StorageOnly) {
  if (!E)
    return false;
  E = E->IgnoreParenCasts();
  // Only an lvalue names an object (`&x`, `p + 1` name none).
  if (!E->isGLValue())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (DRE->getDecl() == V)
      return true;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return mayDesignate(CO->getTrueExpr(), V, Through, StorageOnly) ||
           mayDesignate(CO->getFalseExpr(), V, Through, StorageOnly);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isCommaOp())
      return mayDesignate(BO->getRHS(), V, Through, StorageOnly);
    if (BO->isAssignmentOp())
      return mayDesignate(BO->getLHS(), V, Through, StorageOnly);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && isBuiltinOperatorCall(Op)) {
    // A template's operator on arithmetic or pointer operands: the builtin
    // one, whose lvalue results are an assignment's left side, a comma's
    // right, or an object reached through a pointer.
    if (Op->isAssignmentOp())
      return mayDesignate(Op->getArg(0), V, Through, StorageOnly);
    if (Op->getOperator() == OO_Comma)
      return mayDesignate(Op->getArg(1), V, Through, StorageOnly);
    if (Op->getOperator() == OO_Star || Op->getOperator() == OO_Subscript)
      return escapes(V) &&
             typesMayAlias(E->getType(), V->getType(), V->getASTContext());
    return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callMayLeadTo(Call, V, Through, StorageOnly);
  if (StorageOnly ? storageRoot(E) == V
                  : Through && rootVariable(E) == V)
    return true;
  // Through a pointer or a reference: any object whose address escaped,
  // that an access of this type may reach.
  return isIndirect(E) && escapes(V) &&
         typesMayAlias(E->getType(), V->getType(), V->getASTContext());
}

bool forEachStmt(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Visit) {
  if (!S)
    return true;
  return StmtWalker(Visit).TraverseStmt(const_cast<Stmt *>(S));
}

EffectsScope::EffectsScope() {
  assert(!scopeDepth() && "one translation unit's scope at a time");
  ++scopeDepth();
  escapeCache().clear();
  calleeCache().clear();
}
EffectsScope::~EffectsScope() {
  --scopeDepth();
  escapeCache().clear();
  calleeCache().clear();
}

} // namespace distwar
