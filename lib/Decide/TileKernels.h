//===- TileKernels.h - which kernels --balance=tiles rewrites ---*- C++ -*-===//
//
// Every __global__ function defined in a file the pass writes (the main
// file, a header --edit-headers allows: TileFiles) gets a TileKernelPlan:
// balanced, or left as written with a reason; so does every kernel of
// another of the user's headers that those files name, which stays as
// written. Beyond its body's safety (TileSafety), the rewrite changes the
// kernel's parameters, so every place that names the kernel must be one it
// rewrites too: a launch statement of a host function in a file it writes.
// A prototype, a launch in a macro, an expression or a header it does not
// write, the kernel's address taken (cudaLaunchKernel,
// cudaFuncSetAttribute) or no launch at all keep it as written, and so do
// Clang's errors where they reach the kernel or what names it (TileErrors).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_TILEKERNELS_H
#define DISTWAR_DECIDE_TILEKERNELS_H

#include "Decide/TileErrors.h"
#include "Decide/TileFiles.h"
#include "Plan/TilePlan.h"
#include "clang/AST/ASTContext.h"

namespace distwar {

/// The plan of every kernel defined in a file of \p Files and of every
/// kernel of another user file that they name, in source order. \p Errors:
/// what Clang could not parse; null when it parsed the whole file.
TilePlan planTiles(clang::ASTContext &Ctx, const TileFiles &Files,
                   const TileErrors *Errors = nullptr);

/// The plan of the main file's kernels, for a parse without errors.
TilePlan planTiles(clang::ASTContext &Ctx);

/// The names the rewrite declares in a balanced kernel and around its
/// launches (a kernel that already declares one is left as written).
bool isTileRewriteName(llvm::StringRef Name);

} // namespace distwar

#endif
