//===- SlotLayout.cpp - lays out a group's batch slots --------------------===//

#include "Decide/SlotLayout.h"
#include "Analysis/AstQueries.h"
#include "Analysis/ExprText.h"
#include "Analysis/LoopExits.h"
#include "Decide/DeferredAddress.h"
#include "Group/EditPoints.h"
#include "clang/AST/ExprCXX.h"
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

/// Whether the path from \p S up to \p Arm (a branch of an `if`) holds
/// nothing but blocks.
static bool directlyIn(const AtomicSite &S, const clang::Stmt *Arm) {
  if (S.Call == Arm)
    return true;
  for (const clang::Stmt *A : S.Ancestors) {
    if (A == Arm)
      return true;
    if (!llvm::isa<clang::CompoundStmt, clang::ExprWithCleanups>(A))
      return false;
  }
  return false;
}

/// The position in \p G of an earlier site whose slot the \p K-th site
/// shares, or nullopt: the two add to the same address, one in the `then`
/// and the other in the `else` of one lane-dependent `if` (nothing but
/// blocks in between), under no other condition in the group's scope.
static std::optional<size_t> sharedSlot(clang::ASTContext &Ctx,
                                        const std::vector<AtomicSite> &Sites,
                                        const SiteGroup &G, size_t K) {
  const AtomicSite &S = Sites[G.Sites[K]];
  if (S.Channel || (G.AfterContinue && K >= G.AfterContinue))
    return std::nullopt;
  for (const clang::IfStmt *If : G.LaneIfs) {
    if (!If->getElse() || !directlyIn(S, If->getElse()))
      continue;
    for (size_t J = 0; J < K; ++J) {
      const AtomicSite &T = Sites[G.Sites[J]];
      if (!T.Channel && directlyIn(T, If->getThen()) &&
          T.Buffer == S.Buffer && T.BufferField == S.BufferField &&
          sameExpression(T.Call->getArg(0), S.Call->getArg(0), Ctx))
        return J;
    }
  }
  return std::nullopt;
}

/// The presence of a slot that both arms of \p If set: the `if`
/// statement's own, as a site directly in the scope would have.
static Presence sharedPresence(clang::ASTContext &Ctx,
                               const std::vector<AtomicSite> &Sites,
                               const SiteGroup &G, size_t J, bool MayJump,
                               const EditPoints &Where) {
  const AtomicSite &S = Sites[G.Sites[J]];
  bool InScope = llvm::any_of(G.LaneIfs, [&](const clang::IfStmt *If) {
    return directlyIn(S, If->getThen()) &&
           llvm::is_contained(scopeStatements(G.Scope), If) &&
           llvm::count_if(G.LaneIfs, [&](const clang::IfStmt *Other) {
             return llvm::is_contained(S.Ancestors, Other);
           }) == 1;
  });
  std::optional<std::string> Cond = siteCondition(Ctx, S, G);
  return InScope && !MayJump && Cond && Cond->empty() &&
                 !Where.inConditionalBlock(G, S)
             ? Presence::Always
             : Presence::Lane;
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
    const size_t K = L.Slots.size();
    std::optional<size_t> J = sharedSlot(Ctx, Sites, G, K);
    // A lane sets a slot once: one site of each arm.
    if (J && llvm::any_of(L.Slots, [&](const DeferredSlot &D) {
          return D.SharesEarlier && D.Offset == L.Slots[*J].Offset;
        }))
      J.reset();
    if (J) {
      L.Slots.push_back({I, L.Slots[*J].Offset, "", "", true});
      L.SlotTexts.push_back(L.SlotTexts[*J]);
      L.Presences[*J] = sharedPresence(Ctx, Sites, G, *J, MayJump, Where);
      L.Presences.push_back(L.Presences[*J]);
      continue;
    }
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
