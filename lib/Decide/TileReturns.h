//===- TileReturns.h - may a lane's return end its tile instead -*- C++ -*-===//
//
// In the persistent loop of --balance=tiles the kernel's body is a lambda
// called once per tile, so a lane's `return` ends the tile for that lane,
// which then waits at the scheduler's barrier after the body. In the
// original the lane exited, and on Volta and later an exited thread is not
// counted at the block's later barriers, nor at a warp collective (all
// non-exited lanes of its mask must take part); a lane that is merely
// waiting elsewhere is. So a return is convertible only where no lane of
// the block can reach a block barrier or a warp collective of the body
// after lanes part ways on the way to it, unless the branches where they
// would part are block-uniform (every lane takes the same way). The
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

} // namespace distwar

#endif
