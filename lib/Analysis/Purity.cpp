//===- Purity.cpp - calls that write nothing and read only values ---------===//

#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace distwar {

namespace {

/// Clang's CUDA headers read threadIdx.x and its kin through these static
/// methods: they read no memory and write nothing, but their value depends
/// on the lane.
bool isIndexFetch(llvm::StringRef Name) {
  return Name == "__fetch_builtin_x" || Name == "__fetch_builtin_y" ||
         Name == "__fetch_builtin_z";
}

bool isKnownPureName(llvm::StringRef Name) {
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
         Name.starts_with("__nv_") || Name.starts_with("__builtin_") ||
         isIndexFetch(Name);
}

/// A function of the known list as CUDA's headers or the compiler declare it
/// (never a user's function that happens to share a name or a prefix).
bool isKnownMathDeclaration(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || !isKnownPureName(FD->getName()))
    return false;
  if (FD->getBuiltinID())
    return true;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

/// An operand whose type is arithmetic or a pointer in every instantiation:
/// no overloaded operator can take it (an overload needs an operand of class
/// or enumeration type).
bool isBuiltinOperand(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isPointerType())
    return true;
  if (!E->isTypeDependent())
    return E->getType()->isArithmeticType() || E->getType()->isNullPtrType();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    QualType T = ASE->getBase()->IgnoreParenImpCasts()->getType();
    const Type *Elem = T->isPointerType() ? T->getPointeeType().getTypePtr()
                                          : T->getPointeeOrArrayElementType();
    return Elem && !Elem->isDependentType() && Elem->isArithmeticType();
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return isBuiltinOperatorCall(Op);
  return false;
}

} // namespace

bool isBuiltinOperatorCall(const CXXOperatorCallExpr *Op) {
  if (!isa<UnresolvedLookupExpr>(Op->getCallee()->IgnoreParenImpCasts()))
    return false;
  return llvm::all_of(Op->arguments(),
                      [](const Expr *A) { return isBuiltinOperand(A); });
}

namespace {

bool bodyIsPure(const Stmt *S, unsigned Depth, bool OwnObject = false);

bool isPureCalleeAt(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return false;
  if (isKnownMathDeclaration(FD))
    return true;
  const FunctionDecl *Def = nullptr;
  if (Depth > 8 || !FD->hasBody(Def) || !Def)
    return false;
  // A constructor stores into the object it builds (a local or temporary of
  // its caller's), so its own members count as its locals; its member and
  // base initialisers run too (a base's constructor is judged the same way).
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def);
  if (Ctor)
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (!bodyIsPure(Init->getInit(), Depth + 1))
        return false;
  return bodyIsPure(Def->getBody(), Depth + 1, Ctor != nullptr);
}

bool bodyReadsOnlyArguments(const Stmt *S, unsigned Depth);

/// What readsOnlyArguments says of \p FD, \p Depth calls deep.
bool readsOnlyArgumentsAt(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return false;
  if (isKnownMathDeclaration(FD))
    return !isIndexFetch(FD->getName());
  const FunctionDecl *Def = nullptr;
  if (Depth > 8 || !FD->hasBody(Def) || !Def)
    return false;
  // A constructor's initialisers run before its body.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (!bodyIsPure(Init->getInit(), Depth + 1) ||
          !bodyReadsOnlyArguments(Init->getInit(), Depth + 1))
        return false;
  return bodyIsPure(Def->getBody(), Depth + 1) &&
         bodyReadsOnlyArguments(Def->getBody(), Depth + 1);
}

/// A variable a function of its arguments may read: its own parameters and
/// locals by value, constants (never CUDA's thread and block indices, which
/// are const variables too).
bool isArgumentLikeVariable(const VarDecl *V) {
  if (V->getType()->isReferenceType())
    return false;
  if (V->isLocalVarDecl() || isa<ParmVarDecl>(V))
    return !V->isStaticLocal() && !V->hasAttr<CUDASharedAttr>();
  if (V->isConstexpr())
    return true;
  if (V->getIdentifier() &&
      llvm::is_contained(
          {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"},
          V->getName()))
    return false;
  return V->getType().isConstQualified() && !V->hasAttr<CUDASharedAttr>();
}

/// No load through a pointer or reference, no variable other than
/// arguments, locals and constants, no call of a function that reads more.
bool bodyReadsOnlyArguments(const Stmt *S, unsigned Depth) {
  if (!S)
    return true;
  // A method's object is one of its arguments: `this->x` reads it.
  if (isa<AsmStmt>(S))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && !isArgumentLikeVariable(V))
      return false;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
    const auto *Decay =
        dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return false;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S);
      ME && ME->isArrow() &&
      !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (!readsOnlyArgumentsAt(Call->getDirectCallee(), Depth))
      return false;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (!Construct->getConstructor()->isTrivial() &&
        !readsOnlyArgumentsAt(Construct->getConstructor(), Depth))
      return false;
  for (const Stmt *Child : S->children())
    if (!bodyReadsOnlyArguments(Child, Depth))
      return false;
  return true;
}

/// A function body that only computes: stores only to its locals (and, in a
/// constructor, \p OwnObject, to the members of the object it builds), calls
/// only pure functions, no atomics, no barriers, no inline assembly.
bool bodyIsPure(const Stmt *S, unsigned Depth, bool OwnObject) {
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
    // A parameter passed by value is the callee's own copy.
    bool Local = Root && (Root->isLocalVarDecl() || isa<ParmVarDecl>(Root)) &&
                 !Root->getType()->isReferenceType() &&
                 (isa<DeclRefExpr>(E) || Root->getType()->isArrayType());
    bool Member =
        isa<MemberExpr>(E) && isa<CXXThisExpr>(cast<MemberExpr>(E)->getBase());
    bool OwnMember = OwnObject && Member &&
                     isa<FieldDecl>(cast<MemberExpr>(E)->getMemberDecl()) &&
                     !cast<MemberExpr>(E)->getType()->isReferenceType();
    if (!OwnMember && (!Local || Member))
      return false;
  }
  for (const Stmt *Child : S->children())
    if (!bodyIsPure(Child, Depth, OwnObject))
      return false;
  return true;
}

} // namespace

bool isPureCallee(const FunctionDecl *FD) { return isPureCalleeAt(FD, 0); }

bool readsOnlyArguments(const FunctionDecl *FD) {
  return readsOnlyArgumentsAt(FD, 0);
}

bool isKnownMathFunction(const FunctionDecl *FD) {
  return isKnownMathDeclaration(FD);
}

bool readsNoMemory(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
    const Expr *Base = ASE->getBase()->IgnoreParens();
    const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return false;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (!readsOnlyArguments(Call->getDirectCallee()))
      return false;
  for (const Stmt *Child : S->children())
    if (!readsNoMemory(Child))
      return false;
  return true;
}

/// Assignments and increments (calls are judged by readsNoMemory).
bool writesSomething(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    return true;
  for (const Stmt *Child : S->children())
    if (writesSomething(Child))
      return true;
  return false;
}

bool hasOpaqueEffects(const Stmt *S) {
  return isa<StmtExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, AsmStmt>(S);
}

/// Calls that are not pure functions (a call may write memory or
/// synchronise lanes), assignments through template operators, and
/// expressions that run statements or allocate.
bool callsImpure(const Stmt *S) {
  if (!S)
    return false;
  if (hasOpaqueEffects(S))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && isBuiltinOperatorCall(Op)) {
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
        Op->getOperator() == OO_MinusMinus)
      return true;
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (!isPureCallee(Call->getDirectCallee()))
      return true;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (!Construct->getConstructor()->isTrivial() &&
        !isPureCallee(Construct->getConstructor()))
      return true;
  for (const Stmt *Child : S->children())
    if (callsImpure(Child))
      return true;
  return false;
}

bool hasSideEffects(const Expr *E) {
  return writesSomething(E) || callsImpure(E);
}

} // namespace distwar
