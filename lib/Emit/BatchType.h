//===- BatchType.h - The batch type a group declares ------------*- C++ -*-===//

#ifndef DISTWAR_EMIT_BATCHTYPE_H
#define DISTWAR_EMIT_BATCHTYPE_H

#include "Group/Grouping.h"
#include "Plan/SlotLayout.h"
#include <string>

namespace distwar {

/// `::distwar::Fields<T, N, ...>` (values only, \p Deferred) or
/// `::distwar::Batch<T, N, ...>` of the fields of group \p G laid out in
/// \p Layout, with an `::distwar::AlwaysSet<B, E>` per run of slots whose
/// sites run whenever the group's key is set (Presence::Always): the
/// runtime issues those with no presence or null test
/// (GENERATED_CODE.md, section 2); and an `::distwar::LaneSet<B, E>` per run
/// of slots under the group's lane-dependent ifs; and `::distwar::Consecutive`
/// for the one site of a versioned channel loop, whose slots are a key's
/// consecutive channels (\p Versioned: its loop has versions,
/// GENERATED_CODE.md, section 11); and an
/// `::distwar::Adjacent<B, E, Phase>` per run of slots at adjacent floats of
/// one struct element (AdjacentRuns.h).
std::string batchType(clang::ASTContext &Ctx,
                      const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                      const SlotLayout &Layout, bool Deferred, bool Versioned);

} // namespace distwar

#endif
