//===- TileSafety.h - may a kernel's blocks become dynamic tiles -*- C++
//-*-===//
//
// --balance=tiles runs a kernel's blocks as tiles of a persistent loop: a
// block of the new grid runs many of the original blocks, one after the
// other, in the order it draws them from a pool. That is one of the
// schedules the original already allows only where the blocks are
// independent tasks and where each one's place in the grid can be given
// back to it: no grid-wide group or synchronisation, nothing that orders
// blocks or signals between them, every read of blockIdx and gridDim where
// the rewrite can replace it, and every early return one that may end the
// lane's tile instead of its thread.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_TILESAFETY_H
#define DISTWAR_DECIDE_TILESAFETY_H

#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace distwar {

/// Why the blocks of \p Kernel (a kernel with a body: a plain kernel or a
/// template's instantiation) may not run as tiles of a persistent loop,
/// with the statement that says so; Reason::None when they may. Follows the
/// calls of the body into every function it reaches.
Verdict tileSafety(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel);

} // namespace distwar

#endif
