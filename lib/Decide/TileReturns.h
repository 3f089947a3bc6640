//===- TileReturns.h - may a lane's return end its tile instead -*- C++ -*-===//
//
// In the persistent loop of --balance=tiles the kernel's body runs once per
// tile, so a lane's `return`, or its reaching the body's end, ends the tile
// for that lane, which then waits at the loop's barrier after the body. In
// the original the lane exited, and on Volta and later an exited thread is
// not counted at the block's later barriers, nor at a warp collective (all
// non-exited lanes of its mask must take part); a lane that is merely
// waiting elsewhere is. So the body is a tile's only where every block
// barrier and warp collective is reached by all the lanes it waits for or
// by none: whether a lane reaches one is decided by uniform branches only
// (the block's for a barrier, the warp's for a warp collective). A return
// before a barrier is the common case, refused at the return. The
// runtime's reductions take the lanes that are there and do not count.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_TILERETURNS_H
#define DISTWAR_DECIDE_TILERETURNS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace distwar {

/// The first `return` of \p Kernel (a function with a body: an
/// instantiation, not a template's pattern) that some lanes of a block may
/// take while others go on to a block barrier or a warp collective; null
/// when every return may
/// end the lane's tile. Returns inside lambdas of the body are the
/// lambdas' own and never count.
const clang::ReturnStmt *returnBeforeBarrier(clang::ASTContext &Ctx,
                                             const clang::FunctionDecl *Kernel);

/// The first statement of \p Kernel that may wait for other lanes (a block
/// barrier, a warp collective, a call that reaches one) and that some lanes
/// may skip: a branch that decides whether a lane reaches it is not
/// uniform across the lanes it waits for (the block, or for a warp
/// collective the warp). A lane that skips it may end its tile, by a
/// return or at the body's end, and wait at the loop's barrier, where the
/// original's lane exited and was not waited for. Null when every such
/// statement is reached by all lanes or none.
const clang::Stmt *
barrierNotEveryLaneReaches(clang::ASTContext &Ctx,
                           const clang::FunctionDecl *Kernel);

} // namespace distwar

#endif
