//===- TileCosts.h - what a tile costs, computed before its launch -*- C++
//-*-===//
//
// Persistent blocks that draw tiles in launch order gain nothing over the
// hardware's own block scheduler, which hands out blocks in that order too;
// drawn heaviest first, a heavy tile no longer runs alone at the end of the
// launch while the other blocks idle. The pool needs each tile's cost
// before the launch. A balanced kernel usually says it in its first lines:
//
//   uint2 range = ranges[blockIdx.y * horizontal_blocks + blockIdx.x];
//   const int rounds = (range.y - range.x + BLOCK_SIZE - 1) / BLOCK_SIZE;
//   ...
//   for (int i = 0; i < rounds; i++, toDo -= BLOCK_SIZE) {
//
// so the trip count of that loop, computed from the tile's place by the
// body's own declarations, is the tile's cost. A kernel of its own (the
// cost kernel, Emit/TileEdits.h) runs those declarations for every tile
// before the launch.
//
// The cost decides only the order in which tiles are drawn, and a balanced
// kernel computes the same in any order: a wrong cost makes the launch
// slower, never different. What must hold is that the cost kernel does
// nothing the original would not: the declarations are statements of the
// body's top level that every thread of every block ran before the loop
// (no statement before them may leave the body), they read the parameters
// and the block's place but no thread's, they load only through pointer
// parameters at indices computed without loads (the addresses the original
// loaded, whatever the memory holds), and they call nothing but min and max.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_TILECOSTS_H
#define DISTWAR_DECIDE_TILECOSTS_H

#include "Plan/TilePlan.h"
#include "clang/AST/ASTContext.h"
#include <optional>

namespace distwar {

/// The cost of \p Plan's tiles, or none: the tiles are drawn in launch
/// order. \p Plan is a balanced kernel's (its block index uses found).
std::optional<TileCost> findTileCost(clang::ASTContext &Ctx,
                                     const TileKernelPlan &Plan);

/// Whether \p S makes a temporary whose destructor runs at the end of the
/// full expression: an argument moved into a variable of its own would see
/// it destroyed before the launch (`k<<<g, b>>>(Buffer(n).data())`).
bool holdsDestroyedTemporary(const clang::Stmt *S);

/// Whether the text of \p Range (an expression or statement) can be copied
/// or moved elsewhere in the file: it lies in one file, outside macros'
/// bodies, and holds no comment and no preprocessor line (which the copy
/// could cut or move).
bool isMovableText(const clang::SourceManager &SM, clang::SourceRange Range);

} // namespace distwar

#endif
