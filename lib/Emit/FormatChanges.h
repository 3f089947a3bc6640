//===- FormatChanges.h - clang-format over the changed lines ----*- C++ -*-===//
//
// The formatted output's first step: the lines a rewrite changed, formatted
// in the file's clang-format style, and nothing but their whitespace: no
// token is added, removed or reordered, so every later step may rely on the
// text's tokens being the compact form's.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_FORMATCHANGES_H
#define DISTWAR_EMIT_FORMATCHANGES_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

namespace distwar {

/// Whitespace-only replacements on \p Code that format \p Ranges in the
/// style \p StyleName ("file", a style name or "{...}") finds for
/// \p FilePath, or \p FallbackStyle. An unusable style is an error.
llvm::Expected<clang::tooling::Replacements>
formatChanges(llvm::StringRef Code, llvm::ArrayRef<clang::tooling::Range> Ranges,
              llvm::StringRef FilePath, llvm::StringRef StyleName,
              llvm::StringRef FallbackStyle);

} // namespace distwar

#endif
