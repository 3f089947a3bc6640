//===- BatchType.cpp - The batch type a group declares --------------------===//

#include "Emit/BatchType.h"
#include "Emit/AdjacentRuns.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <cassert>

using namespace clang;

namespace distwar {

namespace {

/// A template argument: sums of names and numbers as written, anything else
/// (a `>`, a `-`) in parentheses.
std::string templateArgument(const std::string &T) {
  bool Sum = llvm::all_of(T, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == ':' || C == ' ' || C == '+';
  });
  return Sum ? T : "(" + T + ")";
}

} // namespace

std::string batchType(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                      const SiteGroup &G, const SlotLayout &Layout,
                      bool Deferred, bool Versioned) {
  llvm::ArrayRef<DeferredSlot> Slots = Layout.Slots;
  const std::string &Size = Layout.Size;
  std::string Type =
      std::string(Deferred ? "::distwar::Fields<" : "::distwar::Batch<") +
      Sites[G.Sites.front()].TypeText + ", " + Size;
  assert(Slots.size() == G.Sites.size() && "one slot per site, in order");
  auto PresenceOf = [&](size_t K) {
    return K == Slots.size() ? Presence::Tracked : Layout.Presences[K];
  };

  // The slot number of Slots[K], or the batch's size past the last one.
  auto SlotText = [&](size_t K) -> const std::string & {
    return K < Slots.size() ? Slots[K].Offset : Size;
  };
  // Runs of AlwaysSet and LaneSet slots, in slot order.
  std::optional<size_t> RunStart;
  Presence Run = Presence::Tracked;
  for (size_t K = 0; K <= Slots.size(); ++K) {
    if (K < Slots.size() && Slots[K].SharesEarlier)
      continue; // described by the earlier site
    Presence P = PresenceOf(K);
    if (RunStart && P != Run) {
      Type += std::string(Run == Presence::Always ? ", ::distwar::AlwaysSet<"
                                                  : ", ::distwar::LaneSet<") +
              templateArgument(SlotText(*RunStart)) + ", " +
              templateArgument(SlotText(K)) + ">";
      RunStart.reset();
    }
    if (P != Presence::Tracked && !RunStart) {
      RunStart = K;
      Run = P;
    }
  }
  // One site of a versioned loop adds at `buf + key + i` in slot i: its
  // fields are a key's consecutive channels.
  if (Slots.size() == 1 && Slots.front().Offset == "0" && Versioned)
    Type += ", ::distwar::Consecutive";
  for (const AdjacentRun &R : adjacentRuns(Ctx, Sites, G, Slots))
    Type += ", ::distwar::Adjacent<" + templateArgument(SlotText(R.Begin)) +
            ", " + templateArgument(SlotText(R.End)) +
            (R.Phase ? ", " + std::to_string(R.Phase) : std::string()) + ">";
  return Type + ">";
}

} // namespace distwar
