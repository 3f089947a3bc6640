//===- AdjacentRuns.h - Slots at adjacent floats of one element -*- C++ -*-===//
//
// Which slots of a group add to adjacent floats of one struct element
// (`&g[i].cam_pos.x` to `&g[i].axis_z.z`), so that the batch can mark them
// `::distwar::Adjacent<Begin, End, Phase>` and the runtime add them with
// sm_90's vector atomics (GENERATED_CODE.md, section 2).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_ADJACENTRUNS_H
#define DISTWAR_EMIT_ADJACENTRUNS_H

#include "Find/AtomicSites.h"
#include "Group/Grouping.h"
#include "Plan/SlotLayout.h"
#include "clang/AST/ASTContext.h"
#include <vector>

namespace distwar {

/// Slots[Begin, End) of a group, adjacent floats of one element; the first
/// lies Phase floats past a 16-byte boundary wherever the buffer is 16-byte
/// aligned.
struct AdjacentRun {
  size_t Begin = 0, End = 0;
  unsigned Phase = 0;
};

/// The runs of one-field float slots of \p G (Slots[k + 1] one float after
/// Slots[k]): each site adds to a member of the same element `B[I]` (same
/// buffer, same index), the
/// element's size is a multiple of 16 bytes, so that the run's alignment is
/// the buffer's plus a known phase, and the run holds a 16-byte block (a
/// float4 atomic; pairs cost more than they save, vector_plan.h). A hint:
/// the runtime checks every vector's addresses before it adds one.
std::vector<AdjacentRun> adjacentRuns(clang::ASTContext &Ctx,
                                      const std::vector<AtomicSite> &Sites,
                                      const SiteGroup &G,
                                      llvm::ArrayRef<DeferredSlot> Slots);

} // namespace distwar

#endif
