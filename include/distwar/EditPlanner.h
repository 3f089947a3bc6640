//===- EditPlanner.h - text edits for decided groups ------------*- C++ -*-===//
//
// Turns each safe group into one all-or-nothing set of edits following
// docs/GENERATED_CODE.md. Macro and #if policy lives here: no edit lands in a
// macro expansion, and no group spans a preprocessor conditional.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EDITPLANNER_H
#define DISTWAR_EDITPLANNER_H

#include "distwar/Grouping.h"
#include "clang/Tooling/Core/Replacement.h"
#include <map>

namespace distwar {

enum class Variant { Serial, Floor, Auto, Butterfly };

/// distwar::kMaxBatchFields (runtime/include/distwar/batch.cuh): the most
/// slots a batch keeps, and the longest channel loop unrolled wholly.
constexpr int kMaxBatchFields = 32;

struct VariantDecision;

struct PlannedEdits {
  clang::tooling::Replacements Edits; ///< empty: nothing to change
  /// The edits of each editable header that changes, each with its own
  /// prologue (GENERATED_CODE.md, 2b).
  std::map<clang::FileID, clang::tooling::Replacements> HeaderEdits;
  /// Slot expression of each site (index as in the site list), "" if none.
  std::vector<std::string> SlotTexts;
  /// Batch size expression of each group, "" if not batched.
  std::vector<std::string> SizeTexts;
  /// Non-empty when the edits could not be combined (an internal error).
  std::string Error;
};

/// The prologue's table identifier for \p FilePath (GENERATED_CODE.md, 1).
std::string siteTableName(llvm::StringRef FilePath);

/// The absolute path of \p File: its real path, else its name made absolute
/// against the parse's working directory (-working-directory).
std::string absoluteFilePath(const clang::SourceManager &SM,
                             clang::FileID File);
std::string absoluteFilePath(const clang::FileManager &FM,
                             clang::FileEntryRef File);

/// The included files whose device functions may be edited, each with its
/// path relative to the --edit-headers entry that allows it.
using EditableHeaders = std::map<clang::FileID, std::string>;

/// Plans the edits of \p Groups (Why == None), each as its decision in
/// \p Decisions says (serial when null), or of every discarded-result
/// atomicAdd for the floor variant. Groups refused here get their Why set;
/// batched groups get their Name.
PlannedEdits planEdits(clang::ASTContext &Ctx,
                       const std::vector<AtomicSite> &Sites,
                       std::vector<SiteGroup> &Groups, Variant V,
                       llvm::StringRef FilePath,
                       std::vector<VariantDecision> *Decisions = nullptr,
                       const EditableHeaders *Headers = nullptr);

} // namespace distwar

#endif
