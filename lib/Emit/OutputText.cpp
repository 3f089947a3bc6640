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

/// Whether every line break of \p Text is CRLF.
static bool breaksLinesWithCrlf(llvm::StringRef Text) {
  size_t Breaks = Text.count('\n');
  return Breaks > 0 && Text.count("\r\n") == Breaks;
}

/// \p Edits with every line break they insert written as CRLF, as the
/// file's own are: one that is already CRLF, in the text or with the
/// file's `\r` just before it, stays as it is.
static tooling::Replacements withCrlf(llvm::StringRef Original,
                                      const tooling::Replacements &Edits) {
  tooling::Replacements Out;
  for (const tooling::Replacement &R : Edits) {
    llvm::StringRef T = R.getReplacementText();
    std::string Text;
    for (size_t I = 0; I < T.size(); ++I) {
      bool AfterCr = I > 0 ? T[I - 1] == '\r'
                           : R.getOffset() > 0 &&
                                 Original[R.getOffset() - 1] == '\r';
      if (T[I] == '\n' && !AfterCr)
        Text += '\r';
      Text += T[I];
    }
    llvm::cantFail(Out.add(tooling::Replacement(
        R.getFilePath(), R.getOffset(), R.getLength(), Text)));
  }
  return Out;
}

/// \p Out, its line breaks those of \p Original where the file breaks
/// every line with CRLF.
static OutputText matchLineBreaks(llvm::StringRef Original, OutputText Out) {
  if (!breaksLinesWithCrlf(Original))
    return Out;
  Out.Edits = withCrlf(Original, Out.Edits);
  Out.Text = llvm::cantFail(tooling::applyAllReplacements(Original, Out.Edits));
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
    return matchLineBreaks(Original, OutputText{std::move(*Compact), Edits});

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
  return matchLineBreaks(Original, std::move(Out));
}

} // namespace distwar
