//===- GroupPlans.h - every decision of a file, as one plan -----*- C++ -*-===//
//
// The last step of Decide: from the groups and each group's variant, the
// plan Emit writes (Plan/GroupPlan.h). Here the batched groups are named in
// the order their texts are written, serial groups take the block strategy
// where it is allowed and safe, butterflies their strip, and serial groups
// their shared match and joint reduction.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_GROUPPLANS_H
#define DISTWAR_DECIDE_GROUPPLANS_H

#include "Decide/VariantChoice.h"
#include "Plan/GroupPlan.h"

namespace distwar {

/// The plan of \p Groups as \p Decisions (one per group) decided them under
/// \p V; \p Headers: the editable headers and their relative paths (none
/// when null); \p BlockStrategy: serial groups may take the block strategy;
/// \p RunTimeForm: butterflies also take the serial form, chosen at run time.
/// For the floor variant, the sites whose atomicAdd becomes floorAdd.
/// \p Unparsed: the functions Clang could not parse, left as written.
RewritePlan planRewrite(clang::ASTContext &Ctx,
                        const std::vector<AtomicSite> &Sites,
                        const std::vector<SiteGroup> &Groups, Variant V,
                        const std::vector<VariantDecision> &Decisions,
                        const EditableHeaders *Headers, bool BlockStrategy,
                        bool RunTimeForm,
                        const UnparsedFunctions *Unparsed = nullptr);

} // namespace distwar

#endif
