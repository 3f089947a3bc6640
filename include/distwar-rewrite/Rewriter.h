//===- Rewriter.h - one file in, rewritten text and report out --*- C++ -*-===//

#ifndef DISTWAR_REWRITE_REWRITER_H
#define DISTWAR_REWRITE_REWRITER_H

#include "distwar-rewrite/FrontEnd.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "distwar-rewrite/Inclusion.h"
#include "distwar-rewrite/Options.h"
#include "distwar-rewrite/Report.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace distwar {

/// An included file allowed by --edit-headers: one the rewrite changed, or
/// one it read and left as it is (copied next to the edited ones, so that
/// `#include "x.h"` from an edited copy finds its neighbour).
struct HeaderOutput {
  bool Edited = false;
  std::string Path;                   ///< the original, absolute
  std::string RelativePath;           ///< relative to the entry that allows it
  std::string Output;                 ///< its new text
  clang::tooling::Replacements Edits; ///< Output as replacements on Path
  unsigned FirstLine = 0; ///< line of its first batched site (for errors)
  /// The #include directives that reached it (spelling, includer).
  std::vector<Inclusion> IncludedAs;
};

struct RewriteResult {
  std::string Output; ///< the new text (equal to the input when unchanged)
  /// Output as replacements on the input (--export-fixes).
  clang::tooling::Replacements Edits;
  /// The allowed headers the parse read, edited ones first, each group in
  /// the order the parse entered them.
  std::vector<HeaderOutput> Headers;
  FileReport Report;
  /// Every file the parse read, the main file first (for --depfile).
  std::vector<std::string> FilesRead;
  /// One line for the user when part of the file is left as written because
  /// Clang could not parse it (file:line:col of Clang's first error, what it
  /// rejects, how many functions are left; with --balance=tiles, how many
  /// kernels stay unbalanced for it); empty otherwise.
  std::string Warning;
};

/// True when \p Code is distwar-rewrite output (its prologue, batches or
/// reduction calls), recognised without parsing.
bool looksRewritten(llvm::StringRef Code);

/// Parses \p Code as \p FilePath (absolute) as \p Front says (see
/// CudaArgs.h) once, and rewrites it, and the device functions of the
/// included files that \p Headers allows (none when null), laid out as
/// \p Layout says. A file whose preprocessed tokens name nothing atomic is
/// passed through unparsed (the same result). Where Clang reports errors
/// inside functions, those functions and the ones that reach them are left
/// as written, the rest rewritten, and RewriteResult::Warning says so; any
/// other parse error (at file scope, fatal) is returned as an error whose
/// message is the tool's one line, then Clang's diagnostics. With
/// --balance=tiles (\p Layout), kernels are balanced after the batching,
/// in the file and in the headers \p Headers allows (TileBalance.h); there
/// Clang's errors only keep the kernels they reach, also in a file passed
/// through unparsed.
llvm::Expected<RewriteResult>
rewriteSource(llvm::StringRef FilePath, llvm::StringRef Code,
              const FrontEnd &Front, Variant V,
              const HeaderFilter *Headers = nullptr,
              const OutputLayout &Layout = {});

} // namespace distwar

#endif
