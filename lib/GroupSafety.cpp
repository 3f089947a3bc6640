//===- GroupSafety.cpp - may a group's atomics be deferred? ---------------===//

#include "distwar/GroupSafety.h"
#include "distwar/OpaqueKeys.h"
#include "distwar/Uniformity.h"
#include "distwar/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace distwar {

static bool isKnownPureName(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {"sqrtf",
                                          "sqrt",
                                          "rsqrtf",
                                          "rsqrt",
                                          "cbrtf",
                                          "expf",
                                          "exp",
                                          "exp2f",
                                          "exp2",
                                          "__expf",
                                          "expm1f",
                                          "logf",
                                          "log",
                                          "__logf",
                                          "log2f",
                                          "log10f",
                                          "log1pf",
                                          "powf",
                                          "pow",
                                          "__powf",
                                          "fminf",
                                          "fmaxf",
                                          "fmin",
                                          "fmax",
                                          "min",
                                          "max",
                                          "abs",
                                          "fabsf",
                                          "fabs",
                                          "sinf",
                                          "cosf",
                                          "tanf",
                                          "sin",
                                          "cos",
                                          "tan",
                                          "__sinf",
                                          "__cosf",
                                          "__tanf",
                                          "asinf",
                                          "acosf",
                                          "atanf",
                                          "atan2f",
                                          "sinhf",
                                          "coshf",
                                          "tanhf",
                                          "floorf",
                                          "ceilf",
                                          "roundf",
                                          "truncf",
                                          "rintf",
                                          "floor",
                                          "ceil",
                                          "round",
                                          "fmaf",
                                          "fma",
                                          "__fmaf_rn",
                                          "__fdividef",
                                          "__frcp_rn",
                                          "__fsqrt_rn",
                                          "__saturatef",
                                          "erff",
                                          "erfcf",
                                          "isnan",
                                          "isinf",
                                          "isfinite",
                                          "signbit",
                                          "copysignf",
                                          "hypotf",
                                          "norm3df",
                                          "rnorm3df",
                                          "fmodf",
                                          "remainderf",
                                          "__float2int_rn",
                                          "__int2float_rn",
                                          "__float_as_int",
                                          "__int_as_float",
                                          "__float_as_uint",
                                          "__uint_as_float",
                                          "__popc",
                                          "__clz",
                                          "__ffs",
                                          "__brev"};
  return Names.contains(Name) || Name.starts_with("make_") ||
         Name.starts_with("__nv_") || Name.starts_with("__builtin_");
}

/// An operand whose type is arithmetic in every instantiation.
static bool isArithmeticOperand(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (!E->isTypeDependent())
    return E->getType()->isArithmeticType();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    QualType T = ASE->getBase()->IgnoreParenImpCasts()->getType();
    const Type *Elem = T->isPointerType() ? T->getPointeeType().getTypePtr()
                                          : T->getPointeeOrArrayElementType();
    return Elem && !Elem->isDependentType() && Elem->isArithmeticType();
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return isArithmeticOperatorCall(Op);
  return false;
}

bool isArithmeticOperatorCall(const CXXOperatorCallExpr *Op) {
  if (!isa<UnresolvedLookupExpr>(Op->getCallee()->IgnoreParenImpCasts()))
    return false;
  return llvm::all_of(Op->arguments(),
                      [](const Expr *A) { return isArithmeticOperand(A); });
}

namespace {

/// Walks statements looking for what would make deferring atomics wrong.
class RegionChecker {
public:
  RegionChecker(const std::vector<AtomicSite> &Sites,
                llvm::DenseSet<const VarDecl *> Buffers)
      : Buffers(std::move(Buffers)) {
    for (const AtomicSite &S : Sites)
      if (S.Callee == "atomicAdd" && S.Why != Reason::UsedResult)
        CommutingAtomics.insert(S.Call);
  }

  Reason check(const Stmt *S) {
    visit(S, /*AddressOfAtomic=*/false);
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
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
        ICE && ICE->getCastKind() == CK_PointerToBoolean &&
        isa<DeclRefExpr>(ICE->getSubExpr()->IgnoreParenImpCasts()))
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (CommutingAtomics.contains(Call)) {
        // Unused-result atomicAdds commute with the group's deferred adds.
        visit(Call->getArg(0), true);
        visit(Call->getArg(1), false);
        return;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
          Op && isArithmeticOperatorCall(Op)) {
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
  llvm::DenseSet<const CallExpr *> CommutingAtomics;
  Reason Found = Reason::None;
};

bool bodyIsPure(const Stmt *S, unsigned Depth);

bool isPureCalleeAt(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return false;
  if (FD->getIdentifier() && isKnownPureName(FD->getName()))
    return true;
  if (FD->getBuiltinID() && FD->getIdentifier() &&
      isKnownPureName(FD->getName()))
    return true;
  const FunctionDecl *Def = nullptr;
  if (Depth > 8 || !FD->hasBody(Def) || !Def)
    return false;
  return bodyIsPure(Def->getBody(), Depth + 1);
}

/// A function body that only computes: stores only to its locals, calls only
/// pure functions, no atomics, no barriers, no inline assembly.
bool bodyIsPure(const Stmt *S, unsigned Depth) {
  if (!S)
    return true;
  if (isa<AsmStmt>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (!isPureCalleeAt(Call->getDirectCallee(), Depth))
      return false;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (!Construct->getConstructor()->isTrivial() &&
        !isPureCalleeAt(Construct->getConstructor(), Depth))
      return false;
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  if (Target) {
    const Expr *E = Target->IgnoreParenCasts();
    const VarDecl *Root = rootVariable(E);
    bool Local = Root && Root->isLocalVarDecl() &&
                 !Root->getType()->isReferenceType() &&
                 (isa<DeclRefExpr>(E) || Root->getType()->isArrayType());
    bool Member =
        isa<MemberExpr>(E) && isa<CXXThisExpr>(cast<MemberExpr>(E)->getBase());
    if (!Local || Member)
      return false;
  }
  for (const Stmt *Child : S->children())
    if (!bodyIsPure(Child, Depth))
      return false;
  return true;
}

} // namespace

bool isPureCallee(const FunctionDecl *FD) { return isPureCalleeAt(FD, 0); }

bool isKnownMathFunction(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && isKnownPureName(FD->getName());
}

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

static const Stmt *exitIn(const Stmt *S, bool Nested) {
  if (!S)
    return nullptr;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S))
    return S;
  if (isa<BreakStmt, ContinueStmt>(S) && !Nested)
    return S;
  bool ChildNested =
      Nested || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (const Stmt *Exit = exitIn(Child, ChildNested))
      return Exit;
  return nullptr;
}

const Stmt *findIterationExit(const SiteGroup &G) {
  for (const Stmt *S : regionOf(G))
    if (const Stmt *Exit = exitIn(S, false))
      return Exit;
  return nullptr;
}

/// Between the site and the group's block only blocks, the site's own
/// channel loop and ifs on grid-uniform conditions (conditional fields: the
/// slot keeps a null address when the field is not written) may lie;
/// anything else makes the site conditional.
static bool isUnconditionalIn(const AtomicSite &S, const CompoundStmt *Scope,
                              UniformityAnalysis &U) {
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    const Stmt *Below = Child;
    Child = A;
    if (A == Scope)
      return true;
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

static void collectVariables(const Stmt *S,
                             llvm::SmallVectorImpl<const VarDecl *> &Vars) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Vars.push_back(VD);
  for (const Stmt *Child : S->children())
    collectVariables(Child, Vars);
}

Reason checkGroupSafety(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                        const SiteGroup &G) {
  if (G.Why != Reason::None)
    return G.Why;
  llvm::DenseSet<const VarDecl *> Buffers;
  UniformityAnalysis U(Ctx, G.Function);
  for (size_t I : G.Sites) {
    if (!isUnconditionalIn(Sites[I], G.Scope, U))
      return Reason::ConditionalSite;
    Buffers.insert(Sites[I].Buffer);
  }
  if (findIterationExit(G))
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
  llvm::SmallVector<const VarDecl *, 4> KeyVars;
  collectVariables(Sites[G.Sites.front()].Key, KeyVars);
  for (const VarDecl *V : KeyVars) {
    if (V->isLocalVarDecl() &&
        !SM.isBeforeInTranslationUnit(V->getLocation(), RegionBegin))
      return Reason::NotVisibleAtBatch;
    for (const Stmt *S : regionOf(G))
      if (findWrite(S, V, /*Through=*/true))
        return Reason::KeyModified;
  }
  // Trip counts are spelled in the batch declaration, before the region.
  for (size_t I : G.Sites) {
    if (!Sites[I].Channel)
      continue;
    llvm::SmallVector<const VarDecl *, 4> BoundVars;
    collectVariables(Sites[I].Channel->Lower, BoundVars);
    collectVariables(Sites[I].Channel->Upper, BoundVars);
    for (const VarDecl *V : BoundVars)
      if (V->isLocalVarDecl() &&
          !SM.isBeforeInTranslationUnit(V->getLocation(), RegionBegin))
        return Reason::NotVisibleAtBatch;
  }

  RegionChecker Checker(Sites, std::move(Buffers));
  for (size_t I : G.Sites)
    if (Sites[I].BufferField)
      Checker.Fields.insert(Sites[I].BufferField);
  for (const Stmt *S : regionOf(G))
    if (Reason R = Checker.check(S); R != Reason::None)
      return R;
  return Reason::None;
}

Reason checkStatementsBetween(const std::vector<AtomicSite> &Sites,
                              const SiteGroup &G,
                              llvm::ArrayRef<const Stmt *> Stmts) {
  llvm::DenseSet<const VarDecl *> Buffers;
  for (size_t I : G.Sites)
    Buffers.insert(Sites[I].Buffer);
  RegionChecker Checker(Sites, std::move(Buffers));
  for (const Stmt *S : Stmts)
    if (Reason R = Checker.check(S); R != Reason::None)
      return R;
  for (const Stmt *S : Stmts)
    if (exitIn(S, false))
      return Reason::LeavesIteration;
  return Reason::None;
}

} // namespace distwar
