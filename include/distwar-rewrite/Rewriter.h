//===- Rewriter.h - one file in, rewritten text and report out --*- C++ -*-===//

#ifndef DISTWAR_REWRITE_REWRITER_H
#define DISTWAR_REWRITE_REWRITER_H

#include "distwar-rewrite/HeaderFilter.h"
#include "distwar-rewrite/Report.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace clang {
class FileEntry;
} // namespace clang

namespace distwar {

/// What the rewrite does with each group (--variant; README, "Usage").
enum class Variant { Serial, Floor, Auto, Butterfly };

/// How the output's #line directives name the file whose lines they
/// restore.
enum class LineFileNames {
  Absolute, ///< the input's absolute path: the output lives elsewhere
  Omitted,  ///< no name: the output replaces the input (-i)
};

/// How the rewritten text is laid out (--format-style).
struct OutputLayout {
  LineFileNames Names = LineFileNames::Absolute;
  /// The clang-format style of the changed lines: "file" (the .clang-format
  /// found above the input, else FallbackStyle), a style name ("llvm",
  /// "google", ...) or "{Key: Value, ...}". "none" is the compact form:
  /// inserted code joins the lines it is inserted on, so every line keeps
  /// its number and no #line directive is needed between lines.
  std::string FormatStyle = "file";
  std::string FallbackStyle = "llvm";
  /// --variant=auto may give a serial group the block strategy (a table in
  /// shared memory per thread block, GENERATED_CODE.md section 10;
  /// --block-strategy=on). Off by default: the table is static shared
  /// memory, which may lower the occupancy of a kernel with small blocks
  /// even where the tuner then picks a warp reduction.
  bool BlockStrategy = false;

  bool compact() const { return FormatStyle == "none"; }
};

/// How files are parsed: the front-end flags and where precompiled CUDA
/// headers are kept.
struct FrontEnd {
  FrontEnd() = default;
  FrontEnd(std::vector<std::string> Args) : Args(std::move(Args)) {}
  /// CudaArgs.h's frontEndArgs.
  std::vector<std::string> Args;
  /// The precompiled-header cache; empty: every parse reads the headers.
  std::string CacheDir;
  /// Parse even a file whose tokens name nothing atomic (tests compare).
  bool AlwaysParse = false;
};

/// One `#include` the preprocessor resolved: its spelling, the file, and
/// the file that holds the directive.
struct Inclusion {
  std::string Spelled;
  const clang::FileEntry *File = nullptr;
  std::string Includer; ///< absolute
  /// Found in the includer's own directory (`#include "./x.h"`): a copy
  /// finds it next to the includer's copy.
  bool RelativeToIncluder = false;
};

/// An included file allowed by --edit-headers: one the rewrite changed, or
/// one it read and left as it is (copied next to the edited ones, so that
/// `#include "x.h"` from an edited copy finds its neighbour).
struct HeaderOutput {
  bool Edited = false;
  std::string Path;         ///< the original, absolute
  std::string RelativePath; ///< relative to the entry that allows it
  std::string Output;       ///< its new text
  clang::tooling::Replacements Edits; ///< Output as replacements on Path
  unsigned FirstLine = 0;   ///< line of its first batched site (for errors)
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
};

/// True when \p Code is distwar-rewrite output (its prologue, batches or
/// reduction calls), recognised without parsing.
bool looksRewritten(llvm::StringRef Code);

/// Parses \p Code as \p FilePath (absolute) as \p Front says (see
/// CudaArgs.h) once, and rewrites it, and the device functions of the
/// included files that \p Headers allows (none when null), laid out as
/// \p Layout says. A file whose preprocessed tokens name nothing atomic is
/// passed through unparsed (the same result). A parse error is returned as
/// an error whose message is the tool's one line, then Clang's diagnostics.
llvm::Expected<RewriteResult>
rewriteSource(llvm::StringRef FilePath, llvm::StringRef Code,
              const FrontEnd &Front, Variant V,
              const HeaderFilter *Headers = nullptr,
              const OutputLayout &Layout = {});

} // namespace distwar

#endif
