//===- TileBalance.h - the --balance=tiles pass -----------------*- C++ -*-===//
//
// --balance=tiles runs after the batching, as a pass of its own over the
// batched text: it parses that text again (the runtime's headers on the
// include path, the headers the batching edited as it left them), plans
// every kernel of the files it may write (Decide/TileKernels: the main
// file, the headers --edit-headers allows), writes the plan (Emit/TileEdits)
// and lays it out like the batching's edits. The two passes never edit the
// same text at once, so they cannot conflict, and the batched reductions are
// made on the kernel as the user wrote it; the tile loop only wraps the
// body they are in. Where Clang reports errors, the kernels they reach stay
// as written (Decide/TileErrors) and one warning names the first error.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TILEBALANCE_H
#define DISTWAR_TILEBALANCE_H

#include "distwar-rewrite/Rewriter.h"

namespace distwar {

/// Balances the kernels of \p Result's output (the text of \p FilePath
/// after the batching) and of the headers \p Headers allows (none when
/// null) across tiles: its Output, Edits (still on the input), Headers,
/// Report (Changed, Kernels, EditedHeaders) and, where Clang reported
/// errors, Warning are updated.
llvm::Error balanceTiles(llvm::StringRef FilePath, const FrontEnd &Front,
                         const HeaderFilter *Headers,
                         const OutputLayout &Layout, RewriteResult &Result);

} // namespace distwar

#endif
