//===- UniformCalls.cpp - calls whose result is the same in every lane ----===//
//
// UniformityAnalysis's questions about calls: a cooperative-groups query of
// the launch, a function that computes from its arguments alone, CUDA's
// read-only load, and a function that reads only what its arguments lead
// to, given arguments that lead only into memory the kernel only reads.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Collectives.h"
#include "Analysis/Effects.h"
#include "Analysis/Purity.h"
#include "Analysis/ReadOnlyParameters.h"
#include "Analysis/Uniformity.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

/// The address that \p Call reads when it is CUDA's read-only load
/// (`__ldg(p)`, as CUDA's headers or the compiler declare it): the element
/// at `p`, as a plain load reads it, through the read-only data cache that
/// requires the memory to stay unchanged while the kernel runs. Null for
/// any other call.
static const Expr *readOnlyLoadAddress(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || FD->getName() != "__ldg" ||
      FD->getNumParams() != 1 || Call->getNumArgs() != 1)
    return nullptr;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (!FD->getBuiltinID() &&
      !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return nullptr;
  const QualType P = FD->getParamDecl(0)->getType();
  if (!P->isPointerType() || !P->getPointeeType().isConstQualified() ||
      !FD->getASTContext().hasSameUnqualifiedType(FD->getReturnType(),
                                                  P->getPointeeType()))
    return nullptr;
  return Call->getArg(0);
}

/// A call or construction: a cooperative-groups query of the launch, a
/// function that reads only its arguments (and object) of uniform values,
/// CUDA's read-only load at a uniform address, or a function reading what
/// its arguments lead to (uniformReadingCall).
bool UniformityAnalysis::uniformCall(const Expr *E, bool TrustLoads) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && inCooperativeGroups(M) && M->getIdentifier())
      return isGroupAccessor(M->getName());
  }
  auto AllUniform = [&](auto Args) {
    return llvm::all_of(
        Args, [&](const Expr *A) { return isUniform(A, TrustLoads); });
  };
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E))
    return (CCE->getConstructor()->isTrivial() ||
            readsOnlyArguments(CCE->getConstructor())) &&
           AllUniform(CCE->arguments());
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return false;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (FD && inCooperativeGroups(FD) && FD->getIdentifier())
    return isGroupAccessor(FD->getName());
  if (BlockLevel && FD && FD->getIdentifier()) {
    llvm::StringRef N = FD->getName();
    if (N == "__syncthreads_count" || N == "__syncthreads_and" ||
        N == "__syncthreads_or")
      return true; // the block's vote: every thread gets its result
    if (mayBeCollective(Call))
      return false; // a warp's vote or shuffle differs between warps
  }
  // `__ldg(&x)` reads what `x` does; `__ldg(p)`, what `*p` does.
  if (const Expr *Address = readOnlyLoadAddress(Call)) {
    const auto *AddrOf = dyn_cast<UnaryOperator>(Address->IgnoreParens());
    if (AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      return isUniform(AddrOf->getSubExpr(), TrustLoads);
    return uniformLoad(Address, nullptr, Call, TrustLoads);
  }
  if (!FD)
    return false;
  if (!readsOnlyArguments(FD))
    return uniformReadingCall(Call, TrustLoads);
  // A method reads its object too.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (!isUniform(MC->getImplicitObjectArgument(), TrustLoads))
      return false;
  return AllUniform(Call->arguments());
}

/// A call of a function that writes nothing and reads only its arguments
/// and the memory its pointer and reference parameters reach (no other
/// memory but constant memory, no shared memory, no index of the launch:
/// Effects' readsOnlyWhatArgumentsReach), each argument uniform and leading
/// only into memory the kernel only reads: every lane computes the same
/// result from the same values, whenever it calls. A method is left out:
/// nothing here proves its object stable.
bool UniformityAnalysis::uniformReadingCall(const CallExpr *Call,
                                            bool TrustLoads) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || isa<CXXMethodDecl>(FD) || FD->isVariadic() ||
      Call->getNumArgs() != FD->getNumParams() ||
      !effectsOfCallee(FD).readsOnlyWhatArgumentsReach())
    return false;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (!uniformArgument(FD->getParamDecl(I)->getType(), Call->getArg(I),
                         TrustLoads))
      return false;
  return true;
}

/// Whether \p Arg, given for a parameter of type \p Param, is uniform and,
/// where the callee may read through it (a pointer or a reference), leads
/// into memory the kernel only reads or into a temporary of the call.
bool UniformityAnalysis::uniformArgument(QualType Param, const Expr *Arg,
                                         bool TrustLoads) {
  if (!isUniform(Arg, TrustLoads))
    return false;
  if (TrustLoads)
    return true;
  if (Param->isPointerType())
    return readOnly().pointsInto(Arg);
  if (Param->isReferenceType())
    return readOnly().designatesObjectIn(Arg) ||
           isa<MaterializeTemporaryExpr>(Arg->IgnoreParens());
  return true;
}

} // namespace distwar
