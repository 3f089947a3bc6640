//===- SharedMatch.h - serial groups that share one key match ---*- C++ -*-===//
//
// A primitive's gradients often form two serial groups with one key: its
// float fields and an int counter (a batch holds one type). Each would match
// keys across the warp; the later ones can take the first one's groups
// (distwar::KeptPeers, GENERATED_CODE.md, section 3) when the same lanes
// call them, which the runtime checks, and the key is the same value, which
// is proved here.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_SHAREDMATCH_H
#define DISTWAR_DECIDE_SHAREDMATCH_H

#include "Decide/VariantChoice.h"
#include "Find/AtomicSites.h"
#include "Group/Grouping.h"
#include <vector>

namespace distwar {

/// Per group, the chain of serial groups that may share one match: groups
/// of one block, one after another (each region ends before the next
/// begins), whose key is one local variable or parameter that only
/// statements naming it change (its address never taken, no non-const
/// reference to it) and that no statement from the chain's first group to
/// its last assigns. 0 for a group in no chain of two or more; chains are
/// numbered from 1. \p Decisions: each group's variant (null: every group
/// serial).
std::vector<unsigned>
sharedMatchChains(const std::vector<AtomicSite> &Sites,
                  const std::vector<SiteGroup> &Groups,
                  const std::vector<VariantDecision> *Decisions);

} // namespace distwar

#endif
