//===- ContinueSplit.h - groups cut at per-lane continues -------*- C++ -*-===//
//
// A group whose region holds a `continue` between its sites (`if (a < t)
// continue;` between the colour and the geometry atomics of a 3DGS
// backward) is two groups: lanes that continue have added the first part
// and not the second. Each part is batched on its own.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_GROUP_CONTINUESPLIT_H
#define DISTWAR_GROUP_CONTINUESPLIT_H

#include "Group/Grouping.h"

namespace distwar {

/// Splits each group whose region holds per-lane `continue`s (of its
/// iteration, outside every site statement) into one group per run of sites
/// between them (docs/KERNELS.md, "a variant splits the group").
void splitAtContinues(const std::vector<AtomicSite> &Sites,
                      std::vector<SiteGroup> &Groups);

} // namespace distwar

#endif
