//===- StripMining.h - may a uniform loop reduce laps together? -*- C++ -*-===//
//
// A butterfly group whose key the whole warp shares (every lane adds to the
// same elements at each iteration) pays a chain of five shuffles per field
// and iteration. Run two iterations per pass of the loop (laps) and reduce
// both laps' fields at once (distwar/strip.cuh): fewer shuffles, in a
// shorter chain. This is where the rewriter decides that doing so computes
// what the loop computed (GENERATED_CODE.md, section 12).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_STRIPMINING_H
#define DISTWAR_DECIDE_STRIPMINING_H

#include "Group/Grouping.h"
#include "Plan/GroupPlan.h"
#include <optional>
#include <string>

namespace distwar {

struct VariantDecision;

/// The strip loop of \p G, or none. \p G is a butterfly group with a uniform
/// key (\p D) that every lane runs at every iteration (no active flag, no
/// guards) and whose batch has no LaneSet slots; its loop is a braced `for`
/// counting an integer it declares by one under a condition without side
/// effects, whose body never writes the counter, never leaves the iteration
/// early, reaches no warp collective or barrier and holds no other
/// butterfly group; deferring the group's atomics past a whole iteration,
/// condition included, is safe by the rules of the statements between a
/// group's atomics (RegionChecker); and the loop may run inside the generic
/// lambda that distwar::runStrips instantiates once per version of the warp
/// (no label or attribute on it, no variable of its own whose storage
/// outlives a call, no structured binding from outside it).
std::optional<StripLoop> stripLoopOf(clang::ASTContext &Ctx,
                                     const std::vector<AtomicSite> &Sites,
                                     const SiteGroup &G,
                                     const VariantDecision &D);

} // namespace distwar

#endif
