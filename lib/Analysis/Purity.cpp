//===- Purity.cpp - calls that write nothing and read only values ---------===//

#include "Analysis/Purity.h"
#include "Analysis/Effects.h"
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

bool isPureCallee(const FunctionDecl *FD) {
  return effectsOfCallee(FD).isPure();
}

bool readsOnlyArguments(const FunctionDecl *FD) {
  return effectsOfCallee(FD).readsOnlyArguments();
}

bool isKnownMathFunction(const FunctionDecl *FD) {
  return isKnownMathDeclaration(FD);
}

bool readsNoMemory(const Stmt *S) {
  return forEachStmt(S, [](const Stmt *X) {
    if (const auto *Call = dyn_cast<CallExpr>(X))
      return readsOnlyArguments(Call->getDirectCallee());
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(X)) {
      const auto *Decay =
          dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
      return Decay && Decay->getCastKind() == CK_ArrayToPointerDecay;
    }
    return !loadedPointer(X) &&
           !(isa<MemberExpr>(X) && cast<MemberExpr>(X)->isArrow());
  });
}

/// Assignments and increments (calls are judged by readsNoMemory).
bool writesSomething(const Stmt *S) {
  return !forEachStmt(S, [](const Stmt *X) {
    if (const auto *BO = dyn_cast<BinaryOperator>(X))
      return !BO->isAssignmentOp();
    if (const auto *UO = dyn_cast<UnaryOperator>(X))
      return !UO->isIncrementDecrementOp();
    return true;
  });
}

bool hasOpaqueEffects(const Stmt *S) {
  return isa<StmtExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, AsmStmt>(S);
}

/// Calls that are not pure functions (a call may write memory or
/// synchronise lanes), assignments through template operators, and
/// expressions that run statements or allocate.
bool callsImpure(const Stmt *S) {
  return !forEachStmt(S, [](const Stmt *X) {
    if (hasOpaqueEffects(X))
      return false;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(X);
        Op && isBuiltinOperatorCall(Op))
      return !(Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
               Op->getOperator() == OO_MinusMinus);
    if (const auto *Call = dyn_cast<CallExpr>(X))
      return isPureCallee(Call->getDirectCallee());
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(X))
      return Construct->getConstructor()->isTrivial() ||
             isPureCallee(Construct->getConstructor());
    return true;
  });
}

bool hasSideEffects(const Expr *E) {
  return writesSomething(E) || callsImpure(E);
}

} // namespace distwar
