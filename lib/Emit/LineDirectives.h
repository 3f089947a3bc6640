//===- LineDirectives.h - #line directives of the formatted output -*- C++ -*-===//
//
// The formatted output splits inserted code onto lines of its own, so line
// numbers drift from the user's. A `#line` goes in front of each line that
// must keep the user's number where it drifted: the first line of every
// original line (so each diagnostic and debugger step names the user's line)
// and the first line of every inserted block (named for the line it was
// inserted on, the atomic it replaces or the loop it prepares). No directive
// goes where one would change the program: inside parentheses (a macro's
// arguments), a multi-line token or a directive's continued line.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_LINEDIRECTIVES_H
#define DISTWAR_EMIT_LINEDIRECTIVES_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace distwar {

/// Where an offset of the user's file is, as the compiler presumes it.
struct PresumedLine {
  unsigned Line = 0;
  /// The name a directive gives the file, quoted (`"/abs/k.cu"`), or empty
  /// where directives name no file (the output replaces the input).
  std::string QuotedFile;
};

/// `#line Line` with \p QuotedFile after it where there is one.
std::string lineDirectiveText(unsigned Line, llvm::StringRef QuotedFile);

using PresumedLineFn = llvm::function_ref<PresumedLine(unsigned Offset)>;

/// Insertions into \p Output (named \p FilePath) of the #line directives
/// it needs. \p Output is
/// \p Original with \p Edits, then \p Layout (whitespace only) applied;
/// \p Presumed gives an offset of \p Original its line.
clang::tooling::Replacements
lineDirectives(llvm::StringRef FilePath, llvm::StringRef Original,
               const clang::tooling::Replacements &Edits,
               const clang::tooling::Replacements &Layout,
               llvm::StringRef Output, PresumedLineFn Presumed);

} // namespace distwar

#endif
