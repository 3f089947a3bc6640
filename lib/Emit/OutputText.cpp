//===- OutputText.cpp - The rewritten text, compact or formatted ----------===//

#include "Emit/OutputText.h"
#include "Emit/FormatChanges.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <cassert>

using namespace clang;

namespace distwar {

/// \p Text without its whitespace: what a layout may not change.
[[maybe_unused]] static std::string tokensOf(llvm::StringRef Text) {
  std::string Out;
  llvm::copy_if(Text, std::back_inserter(Out),
                [](char C) { return !llvm::isSpace(C); });
  return Out;
}

llvm::Expected<OutputText> layOutEdits(llvm::StringRef FilePath,
                                       llvm::StringRef Original,
                                       const tooling::Replacements &Edits,
                                       const OutputLayout &Layout,
                                       PresumedLineFn Presumed) {
  llvm::Expected<std::string> Compact =
      tooling::applyAllReplacements(Original, Edits);
  if (!Compact)
    return Compact.takeError();
  if (Layout.compact() || Edits.empty())
    return OutputText{std::move(*Compact), Edits};

  // Each range reaches one character past the inserted text, so that a line
  // the insertion ends before (after a pragma it put on a line of its own)
  // is indented too.
  std::vector<tooling::Range> Ranges;
  for (const tooling::Range &R : Edits.getAffectedRanges())
    Ranges.emplace_back(R.getOffset(),
                        std::min<size_t>(R.getLength() + 1,
                                         Compact->size() - R.getOffset()));
  llvm::Expected<tooling::Replacements> Format = formatChanges(
      *Compact, Ranges, FilePath, Layout.FormatStyle, Layout.FallbackStyle);
  if (!Format)
    return Format.takeError();
  std::string Formatted =
      llvm::cantFail(tooling::applyAllReplacements(*Compact, *Format));
  assert(tokensOf(Formatted) == tokensOf(*Compact) &&
         "the layout changes whitespace only");
  tooling::Replacements Directives = lineDirectives(
      FilePath, Original, Edits, *Format, Formatted, Presumed);
  OutputText Out;
  Out.Text = llvm::cantFail(tooling::applyAllReplacements(Formatted, Directives));
  Out.Edits = Edits.merge(*Format).merge(Directives);
  return Out;
}

} // namespace distwar
