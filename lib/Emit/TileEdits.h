//===- TileEdits.h - the text of --balance=tiles ----------------*- C++ -*-===//
//
// Writes a TilePlan (Plan/TilePlan.h): each balanced kernel takes the pool,
// the tile count and the original grid first, its body runs in the loop of
// distwar::TileCursor (forEachTile's, runtime/include/distwar/tiles.cuh) as a
// block of its own, its reads of blockIdx, gridDim and group_index() read
// the tile's original place instead, and its returns end the tile:
//
//   __global__ void k(::distwar::TileQueue *distwar_queue,
//                     unsigned distwar_tiles, dim3 distwar_grid, ...) {
//     for (::distwar::TileCursor distwar_tile_cursor(distwar_queue,
//                                                    distwar_tiles);
//          distwar_tile_cursor.more(); distwar_tile_cursor.next()) {
//       const uint3 distwar_blockIdx = ::distwar::tileIndex(
//           distwar_tile_cursor.tile(), distwar_grid);
//       {
//     ... the body: distwar_blockIdx for blockIdx, distwar_grid for gridDim,
//     ... `goto distwar_tile_end;` for `return;`
//       }
//     distwar_tile_end:;
//     }
//   }
//
// A loop rather than forEachTile's lambda, so that the body's lines keep
// their text (clang-format would indent a lambda's body as part of the
// call's line) and a return in a nested loop still ends the tile.
//
// and each of its launches is sized for it (distwar::tileLaunch: the
// persistent grid, the stream's pool, the original grid):
//
//   {
//     const ::distwar::TileLaunch distwar_launch0 =
//         ::distwar::tileLaunch(k, grid, block, shared, stream);
//     k<<<distwar_launch0.grid, distwar_launch0.block, distwar_launch0.shared,
//         distwar_launch0.stream>>>(distwar_launch0.queue,
//         distwar_launch0.tiles, distwar_launch0.original, ...);
//   }
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_TILEEDITS_H
#define DISTWAR_EMIT_TILEEDITS_H

#include "Emit/LineDirectives.h"
#include "Plan/TilePlan.h"
#include "distwar-rewrite/Options.h"
#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include <map>

namespace distwar {

/// The user's bytes of a file of the parse (the parse may read them spelled
/// otherwise).
using FileTextFn = llvm::function_ref<llvm::StringRef(clang::FileID)>;
/// The line the compiler presumes for an offset of a file of the parse.
using FilePresumedFn =
    llvm::function_ref<PresumedLine(clang::FileID, unsigned Offset)>;

/// The edits of \p Plan on each file they change (a balanced kernel's
/// definition and launches may lie in the main file of \p Ctx, named
/// \p FilePath, or in headers, named by their absolute paths), none when no
/// kernel is balanced. Inserted code breaks lines only in the formatted
/// layout; each file's prologue ends in a #line directive that restores its
/// first line's number as \p Presumed gives it.
llvm::Expected<std::map<clang::FileID, clang::tooling::Replacements>>
planTileEdits(clang::ASTContext &Ctx, const TilePlan &Plan,
              llvm::StringRef FilePath, const OutputLayout &Layout,
              FileTextFn TextOf, FilePresumedFn Presumed);

} // namespace distwar

#endif
