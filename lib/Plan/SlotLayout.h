//===- SlotLayout.h - where each field of a batch goes ----------*- C++ -*-===//
//
// A batched group's slots: one per plain site, a run of them per
// channel-loop site (its loop variable past the slots before it), and the
// batch's size (GENERATED_CODE.md, section 2). Decide/SlotLayout.h lays
// them out; Emit spells them.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PLAN_SLOTLAYOUT_H
#define DISTWAR_PLAN_SLOTLAYOUT_H

#include <cstddef>
#include <string>
#include <vector>

namespace distwar {

/// distwar::kMaxBatchFields (runtime/include/distwar/batch.cuh): the most
/// slots a batch keeps, and the longest channel loop unrolled wholly.
constexpr int kMaxBatchFields = 32;

/// A site's slots in its group: [Offset, Offset + Extent) for a channel-loop
/// site (Extent non-empty; Lower is the loop's lower bound), else Offset.
struct DeferredSlot {
  size_t Site = 0;
  std::string Offset;
  std::string Extent;
  std::string Lower;
  /// The slot is an earlier site's, of the same address in the other arm of
  /// one `if` (`if (c) add(&g[i], a); else add(&g[i], b);`): every lane sets
  /// it once, whichever arm it takes. Only that earlier site's entry
  /// describes the slot.
  bool SharesEarlier = false;
};

/// Whether a slot is set whenever the group's key is.
enum class Presence {
  Tracked, ///< maybe not: the batch tracks it
  Always,  ///< always: nothing but blocks and the site's channel loop
           ///< between site and scope, no #if around it, no goto that could
           ///< jump past it
  Lane,    ///< by some lanes of a key: under a lane-dependent if, or after
           ///< a converted continue
};

struct SlotLayout {
  /// The slot expression of each site, in the group's site order.
  std::vector<std::string> SlotTexts;
  /// Each site's slots (a channel-loop site's run), in the same order.
  std::vector<DeferredSlot> Slots;
  /// Whether each site's slots are set whenever the key is, same order.
  std::vector<Presence> Presences;
  /// The batch's size expression.
  std::string Size;
};

} // namespace distwar

#endif
