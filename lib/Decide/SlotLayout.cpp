//===- SlotLayout.cpp - lays out a group's batch slots --------------------===//

#include "Decide/SlotLayout.h"
#include "Analysis/ExprText.h"
#include "Analysis/LoopExits.h"
#include "Decide/DeferredAddress.h"
#include "Group/EditPoints.h"
#include "llvm/ADT/StringExtras.h"

namespace distwar {

/// The channel runs' extents and the constant slots before a slot, as a sum;
/// \p KeepZero keeps a trailing `+ 0` after runs (a plain site's slot).
static std::string joinSum(llvm::ArrayRef<std::string> Terms, unsigned Constant,
                           bool KeepZero) {
  std::string Out = llvm::join(Terms, " + ");
  if (Terms.empty())
    return std::to_string(Constant);
  if (Constant || KeepZero)
    Out += " + " + std::to_string(Constant);
  return Out;
}

/// The run of channel-loop site \p I: its loop variable past the slots
/// before it.
static DeferredSlot channelRun(size_t I, const ChannelLoop &CL,
                               const std::vector<std::string> &ChannelTerms,
                               unsigned Constant, std::string &SlotText) {
  std::string Var = CL.Var->getName().str();
  std::string Upper = parenthesized(CL.UpperText);
  std::string Lower = parenthesized(CL.LowerText);
  std::string Before = joinSum(ChannelTerms, Constant, false);
  SlotText =
      sumText(Before, CL.LowerIsZero ? Var : "(" + Var + " - " + Lower + ")");
  return {I, Before, CL.LowerIsZero ? Upper : "(" + Upper + " - " + Lower + ")",
          CL.LowerText};
}

/// Whether the \p K-th site of \p G is set whenever the key is.
static Presence presenceOf(clang::ASTContext &Ctx,
                           const std::vector<AtomicSite> &Sites,
                           const SiteGroup &G, size_t K, bool MayJump,
                           const EditPoints &Where) {
  const AtomicSite &S = Sites[G.Sites[K]];
  if (underLaneIf(S, G) || (G.AfterContinue && K >= G.AfterContinue))
    return Presence::Lane;
  std::optional<std::string> Cond = siteCondition(Ctx, S, G);
  return !MayJump && Cond && Cond->empty() &&
                 !Where.inConditionalBlock(G, S)
             ? Presence::Always
             : Presence::Tracked;
}

SlotLayout layOutSlots(clang::ASTContext &Ctx,
                       const std::vector<AtomicSite> &Sites,
                       const SiteGroup &G) {
  SlotLayout L;
  bool MayJump = containsGoto(G.Scope);
  const EditPoints Where(Ctx, Sites);
  std::vector<std::string> ChannelTerms;
  unsigned Constant = 0;
  for (size_t I : G.Sites) {
    const AtomicSite &S = Sites[I];
    std::string Slot;
    if (S.Channel) {
      L.Slots.push_back(
          channelRun(I, *S.Channel, ChannelTerms, Constant, Slot));
      ChannelTerms.push_back(L.Slots.back().Extent);
    } else {
      Slot = joinSum(ChannelTerms, Constant++, true);
      L.Slots.push_back({I, Slot, "", ""});
    }
    L.SlotTexts.push_back(std::move(Slot));
    L.Presences.push_back(
        presenceOf(Ctx, Sites, G, L.Presences.size(), MayJump, Where));
  }
  L.Size = joinSum(ChannelTerms, Constant, false);
  assert(L.Slots.size() == G.Sites.size() &&
         L.SlotTexts.size() == G.Sites.size() &&
         "one slot run and one slot text per site");
  return L;
}

} // namespace distwar
