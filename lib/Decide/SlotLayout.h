//===- SlotLayout.h - lays out a group's batch slots ------------*- C++ -*-===//
//
// Each plain site of a group takes the next slot; a channel-loop site takes
// a run of them, its loop variable past the slots before it (the runs of
// loops whose trip count is known only at run time are sums of their
// bounds). The layout is the batch's size, each site's slot text, and the
// runs the deferred addresses and batch types read (Plan/SlotLayout.h).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_SLOTLAYOUT_H
#define DISTWAR_DECIDE_SLOTLAYOUT_H

#include "Find/AtomicSites.h"
#include "Group/Grouping.h"
#include "Plan/SlotLayout.h"

namespace distwar {

/// The slots of \p G's sites, in the group's site order, and whether each
/// is set whenever the key is.
SlotLayout layOutSlots(clang::ASTContext &Ctx,
                       const std::vector<AtomicSite> &Sites,
                       const SiteGroup &G);

} // namespace distwar

#endif
