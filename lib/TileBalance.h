//===- TileBalance.h - the --balance=tiles pass -----------------*- C++ -*-===//
//
// --balance=tiles runs after the batching, as a pass of its own over the
// batched text: it parses that text again (the runtime's headers on the
// include path), plans every kernel of the main file (Decide/TileKernels),
// writes the plan (Emit/TileEdits) and lays it out like the batching's
// edits. The two passes never edit the same text at once, so they cannot
// conflict, and the batched reductions are made on the kernel as the user
// wrote it; the tile loop only wraps the body they are in.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TILEBALANCE_H
#define DISTWAR_TILEBALANCE_H

#include "distwar-rewrite/Rewriter.h"

namespace distwar {

/// Balances the kernels of \p Result's output (the text of \p FilePath
/// after the batching) across tiles: its Output, Edits (still on the
/// input), Report.Changed and Report.Kernels are updated. A text that Clang
/// cannot parse whole is left as it is.
llvm::Error balanceTiles(llvm::StringRef FilePath, const FrontEnd &Front,
                         const OutputLayout &Layout, RewriteResult &Result);

} // namespace distwar

#endif
