//===- Divergence.h - lane divergence made an active flag -------*- C++ -*-===//
//
// The butterfly needs every lane of the warp at the reduction. Inside the loop
// iteration that holds a group, this decides whether the ways lanes skip the
// group (`if (c) continue;`, the group under `if (c) {...}`, nested ifs and
// if/else branches, a lane-dependent loop-condition term that never changes in
// the loop) can become an active flag that guards exactly the statements those
// lanes skipped, and plans it.
// The plan is Plan/FlagPlan.h; Emit writes its text.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_DIVERGENCE_H
#define DISTWAR_DECIDE_DIVERGENCE_H

#include "Analysis/Uniformity.h"
#include "Group/Grouping.h"
#include "Plan/FlagPlan.h"

namespace distwar {

/// Plans the active flag of \p G, or says why it cannot be done.
/// \p Segments: the groups of G's iteration that get a butterfly (G among
/// them, source order; empty means G alone); \p Others: the other batched
/// groups of that iteration, whose regions no guard may cut.
Reason planActiveFlag(clang::ASTContext &Ctx,
                      const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                      UniformityAnalysis &U, FlagPlan &Plan,
                      llvm::ArrayRef<const SiteGroup *> Segments = {},
                      llvm::ArrayRef<const SiteGroup *> Others = {});

} // namespace distwar

#endif
