//===- VariantChoice.h - which reduction each group gets --------*- C++ -*-===//
//
// Per group: the butterfly where divergence converts to an active flag and the
// key is uniform (no key check) or likely uniform (checked at run time);
// serial where keys may differ per lane; left alone where nothing is gained
// (a distinct key per lane) or nothing is safe.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_VARIANTCHOICE_H
#define DISTWAR_DECIDE_VARIANTCHOICE_H

#include "Decide/Divergence.h"
#include "Plan/SlotLayout.h"
#include "distwar-rewrite/Options.h"

namespace distwar {

enum class GroupVariant { Serial, Butterfly, ButterflyUniform };

struct VariantDecision {
  GroupVariant Kind = GroupVariant::Serial;
  /// For a batched group: why a faster variant was not used (None when the
  /// butterfly was chosen, or serial was asked for).
  Reason Note = Reason::None;
  /// A serial group of --variant=auto: why the block strategy was not used
  /// (None when it was, or was not considered).
  Reason BlockNote = Reason::None;
  /// Why the group's threshold starts at 33 (plain atomics until a tuner
  /// measures that reducing pays); None for a start at 0.
  Reason StartNote = Reason::None;
  FlagPlan Flags; ///< butterfly only
};

/// The number of fields \p G's sites add (in a template, the most of any
/// instantiation), or nullopt when a channel loop's trip count is not
/// known.
std::optional<int64_t> fieldCount(clang::ASTContext &Ctx,
                                  const std::vector<AtomicSite> &Sites,
                                  const SiteGroup &G);

/// Decides every group of \p Groups (sets Why for those left alone) under the
/// requested variant \p V (Auto, Butterfly or Serial). A group of uniform
/// addresses that cannot be deferred as a whole is first split into one
/// group per site.
std::vector<VariantDecision>
chooseVariants(clang::ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
               std::vector<SiteGroup> &Groups, Variant V);

} // namespace distwar

#endif
