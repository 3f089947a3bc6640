//===- ExportFixes.h - the rewrite as clang-apply-replacements YAML -*- C++ -*-===//
//
// --export-fixes=FILE: every change the rewrite makes, to the inputs and the
// headers it edits, as the YAML that clang-tidy's --export-fixes writes and
// clang-apply-replacements applies.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TOOLS_EXPORTFIXES_H
#define DISTWAR_TOOLS_EXPORTFIXES_H

#include "distwar-rewrite/Rewriter.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace distwar {

/// The replacements of \p Results (the rewrites of \p Paths, absolute) as
/// one translation unit's YAML, named for the first path.
std::string exportFixesText(llvm::ArrayRef<RewriteResult> Results,
                            llvm::ArrayRef<std::string> Paths);

} // namespace distwar

#endif
