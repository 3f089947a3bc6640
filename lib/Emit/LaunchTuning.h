//===- LaunchTuning.h - wrap the launches of kernels with sites -*- C++ -*-===//
//
// Where the rewritten file itself launches a kernel that reaches batched
// sites (`renderCUDA<C><<<grid, block>>>(...)` in graphdeco's
// BACKWARD::render), the launch statement is wrapped so that the program's
// own launches tune the sites' thresholds (runtime/include/distwar/launch.h;
// docs/GENERATED_CODE.md, section 8).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_LAUNCHTUNING_H
#define DISTWAR_EMIT_LAUNCHTUNING_H

#include "Emit/EditPlanner.h"
#include "Plan/GroupPlan.h"
#include "llvm/Support/Error.h"

namespace distwar {

/// Adds to \p Edits (the main file's) the wrapper of every host launch
/// statement in the main file whose kernel reaches, through calls, a
/// batched group of \p Plan. \p Headers are the
/// editable headers (their groups read their own tables). Returns the number
/// of launches wrapped, or an error when the edits cannot be combined.
llvm::Expected<unsigned> planLaunchTuning(clang::ASTContext &Ctx,
                                          const RewritePlan &Plan,
                                          llvm::StringRef FilePath,
                                          const EditableHeaders &Headers,
                                          clang::tooling::Replacements &Edits);

} // namespace distwar

#endif
