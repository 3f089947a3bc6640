//===- BlockIndexUses.h - reads of the block's place in the grid -*- C++
//-*-===//
//
// A kernel turned into a loop over tiles (--balance=tiles) runs each tile in
// a block that is not the tile's original block: every read of blockIdx and
// gridDim, and cooperative groups' thread_block::group_index() (blockIdx in
// disguise), must be found and replaced by the tile's original values. This
// module finds them in one function's body, without following calls, and
// names the calls and inline assembly through which a body may reach them
// out of sight.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_BLOCKINDEXUSES_H
#define DISTWAR_ANALYSIS_BLOCKINDEXUSES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <vector>

namespace distwar {

/// One read of the block's place in the grid.
struct BlockIndexUse {
  enum Kind {
    BlockIdx,   ///< the name `blockIdx` (its member read follows it)
    GridDim,    ///< the name `gridDim`
    GroupIndex, ///< a call of thread_block::group_index()
  };
  Kind What;
  /// The DeclRefExpr of the built-in variable, or the whole call.
  const clang::Expr *E;
  /// The innermost lambda of the body that holds the use; null for none.
  const clang::LambdaExpr *InLambda = nullptr;
  /// Whether the use can see the function's locals: every lambda around it
  /// captures by default, and it is not in a lambda's parameter list (a
  /// default argument cannot name a local).
  bool SeesLocals = true;
};

/// Every read of blockIdx, gridDim and group_index() in \p Body, in the
/// order a traversal meets them (lambdas defined in it included).
std::vector<BlockIndexUse> findBlockIndexUses(const clang::Stmt *Body);

/// True for cooperative groups' thread_block::group_index().
bool isGroupIndexCall(const clang::CallExpr *Call);

/// True for a query of a thread_block's place or shape (group_index(),
/// group_dim(), size(), ...): one value in every thread of the block.
bool isBlockShapeQuery(const clang::CallExpr *Call);

/// True for a call into cooperative groups' grid, multi-grid or cluster
/// groups (this_grid(), grid_group::sync(), this_cluster(), ...): code that
/// treats blocks as members of one group.
bool isGridGroupCall(const clang::CallExpr *Call);

/// True when inline assembly \p Asm reads a special register of the grid's
/// geometry (%ctaid, %nctaid, %clusterid, ...).
bool asmReadsGridPlace(const clang::AsmStmt *Asm);

/// True when inline assembly \p Asm may signal between blocks or end the
/// thread: atomics, fences, volatile or ordered memory operations, exit,
/// and any load or store of memory other blocks see, but for non-coherent
/// loads (`ld.global.nc`: read-only data).
bool asmMayOrderBlocks(const clang::AsmStmt *Asm);

} // namespace distwar

#endif
