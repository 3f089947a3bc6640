//===- OutputText.h - The rewritten text, compact or formatted --*- C++ -*-===//
//
// The edits applied to a file, laid out as --format-style says: compact
// (the inserted code joins the user's lines, whose numbers never change) or
// formatted (the changed lines in the file's clang-format style, #line
// directives keeping every user line's number).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_OUTPUTTEXT_H
#define DISTWAR_EMIT_OUTPUTTEXT_H

#include "Emit/LineDirectives.h"
#include "distwar-rewrite/Options.h"

namespace distwar {

struct OutputText {
  std::string Text;
  clang::tooling::Replacements Edits; ///< Text as replacements on the input
};

/// \p Original (named \p FilePath) with \p Edits applied and laid out as
/// \p Layout says.
llvm::Expected<OutputText>
layOutEdits(llvm::StringRef FilePath, llvm::StringRef Original,
            const clang::tooling::Replacements &Edits,
            const OutputLayout &Layout, PresumedLineFn Presumed);

} // namespace distwar

#endif
