//===- ExportFixes.cpp - the rewrite as clang-apply-replacements YAML -----===//

#include "ExportFixes.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/raw_ostream.h"
#include <cassert>

using namespace clang;

namespace distwar {

/// \p Edits, each naming \p Path (the library names files as it parsed them).
static void appendEdits(const tooling::Replacements &Edits,
                        llvm::StringRef Path,
                        std::vector<tooling::Replacement> &Out) {
  for (const tooling::Replacement &R : Edits)
    Out.emplace_back(Path, R.getOffset(), R.getLength(),
                     R.getReplacementText());
}

std::string exportFixesText(llvm::ArrayRef<RewriteResult> Results,
                            llvm::ArrayRef<std::string> Paths) {
  assert(Results.size() == Paths.size() && "one result per input");
  tooling::TranslationUnitReplacements Fixes;
  Fixes.MainSourceFile = Paths.empty() ? "" : Paths.front();
  for (size_t I = 0; I < Results.size(); ++I) {
    appendEdits(Results[I].Edits, Paths[I], Fixes.Replacements);
    for (const HeaderOutput &H : Results[I].Headers)
      if (H.Edited)
        appendEdits(H.Edits, H.Path, Fixes.Replacements);
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << Fixes;
  return Text;
}

} // namespace distwar
