//===- EditPlanner.h - text edits for decided groups ------------*- C++ -*-===//
//
// Turns each safe group into one all-or-nothing set of edits following
// docs/GENERATED_CODE.md. Macro and #if policy lives here: no edit lands in a
// macro expansion, and no group spans a preprocessor conditional.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_EDITPLANNER_H
#define DISTWAR_EMIT_EDITPLANNER_H

#include "Emit/EditList.h"
#include "Group/Grouping.h"
#include "distwar-rewrite/Rewriter.h"
#include "clang/Tooling/Core/Replacement.h"
#include <map>

namespace distwar {

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

/// Plans the edits of \p Groups (Why == None), each as its decision in
/// \p Decisions says (serial when null), or of every discarded-result
/// atomicAdd for the floor variant. Groups refused here get their Why set;
/// batched groups get their Name.
PlannedEdits planEdits(clang::ASTContext &Ctx,
                       const std::vector<AtomicSite> &Sites,
                       std::vector<SiteGroup> &Groups, Variant V,
                       llvm::StringRef FilePath,
                       std::vector<VariantDecision> *Decisions = nullptr,
                       const EditableHeaders *Headers = nullptr,
                       const OutputLayout &Layout = {});

} // namespace distwar

#endif
