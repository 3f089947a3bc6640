//===- EditPlanner.h - text edits for planned groups ------------*- C++ -*-===//
//
// Turns a file's plan (Plan/GroupPlan.h) into its edits, following
// docs/GENERATED_CODE.md, each batched group's as one all-or-nothing set.
// Macro and #if policy lives here: no edit lands in a macro expansion.
// Nothing is decided here: what the plan says is written.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_EDITPLANNER_H
#define DISTWAR_EMIT_EDITPLANNER_H

#include "Emit/EditList.h"
#include "Plan/GroupPlan.h"
#include "distwar-rewrite/Options.h"
#include "clang/Tooling/Core/Replacement.h"
#include <map>

namespace distwar {

struct PlannedEdits {
  clang::tooling::Replacements Edits; ///< empty: nothing to change
  /// The edits of each editable header that changes, each with its own
  /// prologue (GENERATED_CODE.md, 2b).
  std::map<clang::FileID, clang::tooling::Replacements> HeaderEdits;
};

/// The edits of \p Plan: of its batched groups, or of its floor sites; an
/// error when they cannot be combined (an internal error).
llvm::Expected<PlannedEdits> planEdits(clang::ASTContext &Ctx,
                                       const std::vector<AtomicSite> &Sites,
                                       const RewritePlan &Plan,
                                       llvm::StringRef FilePath,
                                       const EditableHeaders *Headers = nullptr,
                                       const OutputLayout &Layout = {});

} // namespace distwar

#endif
