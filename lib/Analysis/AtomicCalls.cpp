//===- AtomicCalls.cpp - which calls are CUDA's atomics -------------------===//

#include "Analysis/AtomicCalls.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace distwar {

namespace {

bool isReportedCallee(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"atomicAdd", "atomicAdd_block", "atomicAdd_system"}, true)
      .Cases({"atomicSub", "atomicSub_block", "atomicSub_system"}, true)
      .Default(false);
}

/// True when \p FD is one of CUDA's own atomic functions: declared at
/// namespace scope in a system header (the SDK and Clang's CUDA wrappers are
/// system headers unless a build names them with -I) or in one of the SDK's
/// atomic headers, wherever it was found.
bool isCudaDeclaration(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  SourceLocation Loc = SM.getExpansionLoc(FD->getLocation());
  if (SM.isInSystemHeader(Loc))
    return true;
  static const llvm::Regex SdkHeader(
      "(^|/)(device|sm_[0-9]+)_atomic_functions\\.hp?p?$");
  return SdkHeader.match(SM.getFilename(Loc));
}

/// PyTorch's gpuAtomicAdd: atomicAdd for the element types a batch holds.
/// Older torch declares it in ATen/cuda/Atomic.cuh, newer torch in
/// torch/headeronly/cuda/Atomic.h (which ATen's header then includes).
bool isTorchAtomicAdd(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD->getIdentifier() || FD->getName() != "gpuAtomicAdd" ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  llvm::StringRef File = SM.getFilename(SM.getExpansionLoc(FD->getLocation()));
  return File.ends_with("ATen/cuda/Atomic.cuh") ||
         File.ends_with("torch/headeronly/cuda/Atomic.h");
}

/// What \p FD is as an atomic: nullopt when it is none of CUDA's (a user's
/// function that happens to be named atomicAdd is an ordinary call), true
/// for a device-scope add, false for the other reported atomics.
std::optional<bool> atomicKind(const FunctionDecl *FD,
                               const SourceManager &SM) {
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  if (isTorchAtomicAdd(FD, SM))
    return true;
  if (!isReportedCallee(FD->getName()) || !isCudaDeclaration(FD, SM))
    return std::nullopt;
  return FD->getName() == "atomicAdd";
}

} // namespace

/// What \p Call calls; in a template, every declaration the unresolved name
/// may pick: all CUDA's (of one kind), or some the program's own.
CallKind callKind(const CallExpr *Call, const SourceManager &SM) {
  auto Of = [](std::optional<bool> DeviceAdd) {
    return !DeviceAdd   ? CallKind::None
           : *DeviceAdd ? CallKind::DeviceAdd
                        : CallKind::OtherAtomic;
  };
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return Of(atomicKind(FD, SM));
  const auto *ULE =
      dyn_cast<UnresolvedLookupExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!ULE || ULE->getNumDecls() == 0)
    return CallKind::None;
  std::optional<bool> Kind;
  bool Cuda = false, User = false;
  for (const NamedDecl *D : ULE->decls()) {
    const NamedDecl *Under = D->getUnderlyingDecl();
    const FunctionDecl *FD = dyn_cast<FunctionDecl>(Under);
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(Under))
      FD = FTD->getTemplatedDecl();
    std::optional<bool> This = atomicKind(FD, SM);
    if (!This) {
      User = true;
      continue;
    }
    if (Kind && *Kind != *This)
      return CallKind::None;
    Cuda = true;
    Kind = This;
  }
  if (Cuda && User)
    return CallKind::UserOverload;
  return User ? CallKind::None : Of(Kind);
}

bool isDeviceAtomicAdd(const CallExpr *Call, const SourceManager &SM) {
  return callKind(Call, SM) == CallKind::DeviceAdd;
}

} // namespace distwar
