//===- Rewriter.h - one file in, rewritten text and report out --*- C++ -*-===//

#ifndef DISTWAR_REWRITER_H
#define DISTWAR_REWRITER_H

#include "distwar/EditPlanner.h"
#include "distwar/Report.h"
#include "llvm/Support/Error.h"

namespace distwar {

struct RewriteResult {
  std::string Output; ///< the new text (equal to the input when unchanged)
  FileReport Report;
  /// Every file the parse read, the main file first (for --depfile).
  std::vector<std::string> FilesRead;
};

/// True when \p Code is distwar-rewrite output (its prologue, batches or
/// reduction calls), recognised without parsing.
bool looksRewritten(llvm::StringRef Code);

/// Parses \p Code as \p FilePath (absolute) with \p FrontEndArgs (see
/// CudaArgs.h) once, and rewrites it. A parse error is returned as an error
/// whose message holds Clang's diagnostics.
llvm::Expected<RewriteResult>
rewriteSource(llvm::StringRef FilePath, llvm::StringRef Code,
              const std::vector<std::string> &FrontEndArgs, Variant V);

} // namespace distwar

#endif
