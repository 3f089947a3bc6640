//===- Editability.h - whether a group's edits can be written ---*- C++ -*-===//
//
// A group that is safe to batch may still not be writable: a site spelled
// inside a macro body, an insertion point inside a macro expansion or
// cutting an #if block, a site of a file the rewrite may not edit. The
// butterfly adds more edits (the live flag, guards around the loop body),
// each of which must be writable too, or the group falls back to serial.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_EDITABILITY_H
#define DISTWAR_DECIDE_EDITABILITY_H

#include "Decide/VariantChoice.h"

namespace distwar {

/// Gives each group whose edits cannot be written its reason, and serial
/// (with the reason as the note) to each butterfly whose flag cannot be;
/// groups that share one loop body's flag stay butterflies together or all
/// become serial.
void checkEditability(clang::ASTContext &Ctx,
                      const std::vector<AtomicSite> &Sites,
                      std::vector<SiteGroup> &Groups,
                      std::vector<VariantDecision> &Decisions);

} // namespace distwar

#endif
