//===- TileKernels.h - which kernels --balance=tiles rewrites ---*- C++ -*-===//
//
// Every __global__ function defined in the main file gets a TileKernelPlan:
// balanced, or left as written with a reason. Beyond its body's safety
// (TileSafety), the rewrite changes the kernel's parameters, so every
// place that names the kernel must be one it rewrites too: a launch
// statement of a host function in the file. A prototype, a launch in a
// macro or an expression, the kernel's address taken (cudaLaunchKernel,
// cudaFuncSetAttribute) or no launch at all keep it as written.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_TILEKERNELS_H
#define DISTWAR_DECIDE_TILEKERNELS_H

#include "Plan/TilePlan.h"
#include "clang/AST/ASTContext.h"

namespace distwar {

/// The plan of every kernel defined in the main file of \p Ctx, in source
/// order.
TilePlan planTiles(clang::ASTContext &Ctx);

/// The names the rewrite declares in a balanced kernel and around its
/// launches (a kernel that already declares one is left as written).
bool isTileRewriteName(llvm::StringRef Name);

} // namespace distwar

#endif
