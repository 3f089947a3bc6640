//===- GroupPlans.cpp - every decision of a file, as one plan -------------===//

#include "Decide/GroupPlans.h"
#include "Analysis/AstQueries.h"
#include "Analysis/LoopExits.h"
#include "Decide/BlockScope.h"
#include "Decide/DeferredAddress.h"
#include "Decide/GroupSafety.h"
#include "Decide/LambdaWrap.h"
#include "Decide/SharedMatch.h"
#include "Decide/SlotLayout.h"
#include "Decide/StripMining.h"
#include "distwar/threshold_values.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <cassert>
#include <map>

using namespace clang;

namespace distwar {

namespace {

/// The most fields of a butterfly written with both forms (fitsBothForms).
constexpr int64_t kMaxFormFields = 16;

/// Makes the plans of the batched groups one after another, in the order
/// their texts are written; what one group's plan depends on in the groups
/// before it (block tables of a kernel, a chain's first group, a joint
/// reduction's first part) is kept here.
class Planner {
public:
  Planner(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
          const std::vector<SiteGroup> &Groups, const EditableHeaders *Headers,
          bool BlockAllowed, bool SerialFormAllowed)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites), Groups(Groups),
        Headers(Headers), BlockAllowed(BlockAllowed),
        SerialFormAllowed(SerialFormAllowed) {}

  /// Names and plans the accepted group \p P.Group (its decision \p D);
  /// \p Chain: its shared-match chain, 0 for none.
  void plan(GroupPlan &P, const VariantDecision &D, unsigned Chain) {
    const SiteGroup &G = *P.Group;
    P.File = SM.getFileID(SM.getExpansionLoc(G.Function->getLocation()));
    P.Number = PerFunction[G.Function]++;
    P.Name = namePrefix(P.File) + Sites[G.Sites.front()].FunctionName + "#" +
             std::to_string(P.Number);
    P.TableIndex = TableSize[P.File]++;
    P.Slots = layOutSlots(Ctx, Sites, G);
    P.Versioned = versionedLoopOf(Sites, G);
    if (P.Versioned)
      P.VersionedReads = versionedLoopReads(Sites, G);
    P.Note = D.Note;
    P.StartNote = D.StartNote;
    P.BlockNote = D.BlockNote;
    P.InitialThreshold = D.StartNote != Reason::None ? kNeverReduce : 0;
    if (D.Kind != GroupVariant::Serial) {
      planButterfly(P, D);
      return;
    }
    if (BlockAllowed) {
      Verdict Why = blockReason(P);
      if (Why == Reason::None)
        return;
      P.BlockNote = Why;
    }
    P.Kind = Strategy::Serial;
    P.AddrOf = deferredAddressLambda(Ctx, Sites, G, P.Slots.Slots, "");
    if (!Chain)
      planJointPart(P);
    else
      planChainPart(P, Chain);
  }

  /// Counts the accepted groups of each versioned loop before any is
  /// planned: where a loop holds two or more, its serial groups are
  /// reduced together.
  void countJointParts(llvm::ArrayRef<size_t> Accepted) {
    for (size_t I : Accepted)
      if (const ChannelLoop *CL = versionedLoopOf(Sites, Groups[I]))
        ++Joints[CL->Loop].Parts;
  }

private:
  /// "" in the main file, the header's relative path and ':' in a header.
  std::string namePrefix(FileID File) const {
    return File == SM.getMainFileID() ? "" : Headers->at(File) + ":";
  }

  void planButterfly(GroupPlan &P, const VariantDecision &D) {
    P.Kind = D.Kind == GroupVariant::ButterflyUniform
                 ? Strategy::ButterflyUniform
                 : Strategy::Butterfly;
    P.Flags = D.Flags;
    P.Strip = stripLoopOf(Ctx, Sites, *P.Group, D);
    P.SerialForm = SerialFormAllowed && servesSerialForm(P) &&
                   fitsBothForms(*P.Group) && versionableLoop(P.Flags.Loop);
    // A strip keeps each lap's addresses (a deferred-address lambda would
    // see the last lap's variables only).
    if (!P.Strip)
      P.AddrOf =
          deferredAddressLambda(Ctx, Sites, *P.Group, P.Slots.Slots,
                                "distwar_key" + std::to_string(P.Number));
  }

  /// Whether the serial form could reduce butterfly \p P differently: its
  /// key may differ across lanes, or lanes may be inactive (serial then
  /// reduces the active ones alone). A uniform key that every lane reduces
  /// is one match of the whole warp, the butterfly's own tree; a strip's
  /// laps are reduced together, which the serial form does not do.
  static bool servesSerialForm(const GroupPlan &P) {
    if (P.Strip)
      return false;
    return P.Kind == Strategy::Butterfly || !P.Flags.alwaysActive();
  }

  /// Whether both forms' versions of \p G's loop fit the registers the
  /// butterfly alone takes about: a batch of at most kMaxFormFields fields
  /// in every instantiation. Both versions are one kernel, which takes the
  /// registers of the larger; the serial form's grow with the batch (a
  /// 128-channel group: 32 registers as a butterfly, 48 serial, 60 with
  /// both, sm_90).
  bool fitsBothForms(const SiteGroup &G) const {
    std::optional<int64_t> Fields = fieldCount(Ctx, Sites, G);
    return Fields && *Fields <= kMaxFormFields;
  }

  /// Whether \p Loop, a butterfly's, may run as the two versions of
  /// runForms: a braced body (its end is the loop's, where nothing of the
  /// body's groups is written), no return or goto in it (they would leave
  /// the lambda, not the loop), and what runsInGenericLambda asks.
  bool versionableLoop(const Stmt *Loop) const {
    if (!Loop)
      return false;
    const Stmt *Body = loopBody(Loop);
    if (!isa_and_nonnull<CompoundStmt>(Body) || !wrappableInFile(Loop, SM))
      return false;
    bool Leaves = !forEachLoopExit(Body, [](const LoopExit &E) {
      return E.Kind != ExitKind::Return && E.Kind != ExitKind::Goto;
    });
    return !Leaves && runsInGenericLambda(Ctx, Loop);
  }

  /// Plans \p P with the block strategy and returns None, or says why it
  /// may not use it.
  Verdict blockReason(GroupPlan &P) {
    const SiteGroup &G = *P.Group;
    if (Reason R = blockGroupReason(Sites, G, P.Slots.Size); R != Reason::None)
      return R;
    auto [It, New] = KernelVerdicts.try_emplace(G.Function);
    if (New)
      It->second = blockScopeReason(G.Function);
    if (It->second != Reason::None)
      return It->second;
    unsigned &Tables = BlockTables[G.Function];
    if (Tables == kMaxBlockTables)
      return Reason::BlockTablesFull;
    if (Verdict Why = blockDeferralReason(Sites, G); Why != Reason::None)
      return Why;
    const auto *Body = cast<CompoundStmt>(G.Function->getBody());
    if (!Body->getLBracLoc().isFileID() || !Body->getRBracLoc().isFileID() ||
        SM.getFileID(Body->getLBracLoc()) != P.File ||
        SM.getFileID(Body->getRBracLoc()) != P.File)
      return Reason::MacroExpansion;
    P.AddrOf = blockAddressLambda(Ctx, Sites, G, P.Slots.Slots);
    if (!P.AddrOf)
      return Reason::BlockAddress;
    ++Tables;
    P.Kind = Strategy::Block;
    return Reason::None;
  }

  /// A serial group of a versioned loop that holds two or more groups is a
  /// part of the loop's joint reduction.
  void planJointPart(GroupPlan &P) {
    if (!P.Versioned)
      return;
    Joint &J = Joints[P.Versioned->Loop];
    if (J.Parts < 2)
      return;
    if (J.Planned++ == 0) {
      P.Joint = JointRole::First;
      J.First = P.Name;
    } else {
      P.Joint = JointRole::Later;
      P.ReducedWith = J.First;
    }
  }

  /// The chain's first serial group keeps its match, later ones reuse it
  /// (a group of the chain that went to the block strategy takes no part).
  void planChainPart(GroupPlan &P, unsigned Chain) {
    P.Chain = Chain;
    auto [It, New] = ChainHeads.try_emplace(Chain, P.Name);
    if (!New)
      P.SharesMatchWith = It->second;
  }

  /// Tables a kernel gets: each at most the runtime's kBlockSlotsBudget
  /// (16 KB), within the 48 KB of static shared memory a block may have.
  static constexpr unsigned kMaxBlockTables = 2;

  ASTContext &Ctx;
  const SourceManager &SM;
  const std::vector<AtomicSite> &Sites;
  const std::vector<SiteGroup> &Groups;
  const EditableHeaders *Headers;
  bool BlockAllowed;
  bool SerialFormAllowed;
  std::map<const FunctionDecl *, unsigned> PerFunction;
  std::map<FileID, unsigned> TableSize;
  std::map<const FunctionDecl *, Verdict> KernelVerdicts;
  std::map<const FunctionDecl *, unsigned> BlockTables;
  /// Per versioned loop, its accepted groups (Parts), the serial ones
  /// planned as its parts so far and the first one's name.
  struct Joint {
    unsigned Parts = 0, Planned = 0;
    std::string First;
  };
  std::map<const Stmt *, Joint> Joints;
  /// Per shared-match chain, the group that keeps the match.
  std::map<unsigned, std::string> ChainHeads;
};

} // namespace

/// The batched groups in the order their regions end. Two that end at one
/// place are a loop body without braces and a statement that ends with it:
/// the inner one first, so that its reduction and closing brace come before
/// the outer one's text there.
static std::vector<size_t> textOrder(const std::vector<SiteGroup> &Groups,
                                     const SourceManager &SM) {
  std::vector<size_t> Accepted;
  for (size_t I = 0; I < Groups.size(); ++I)
    if (Groups[I].Why == Reason::None)
      Accepted.push_back(I);
  llvm::stable_sort(Accepted, [&](size_t A, size_t B) {
    const Stmt *LastA = Groups[A].Last, *LastB = Groups[B].Last;
    if (LastA->getEndLoc() != LastB->getEndLoc())
      return SM.isBeforeInTranslationUnit(LastA->getEndLoc(),
                                          LastB->getEndLoc());
    return SM.isBeforeInTranslationUnit(LastB->getBeginLoc(),
                                        LastA->getBeginLoc());
  });
  return Accepted;
}

/// Whether the floor variant can turn site \p S into floorAdd: a device
/// atomicAdd whose result is unused, spelled in an editable file where its
/// function is, of a plain type, its callee outside macros (or the whole
/// invocation replaced).
static bool floorEditable(const SourceManager &SM, const AtomicSite &S,
                          const EditableHeaders *Headers) {
  const Expr *Callee = S.Call->getCallee();
  SourceLocation Where = SM.getExpansionLoc(S.Call->getBeginLoc());
  FileID File = SM.getFileID(Where);
  bool Editable =
      File == SM.getMainFileID() || (Headers && Headers->count(File));
  return S.IsDeviceAdd && S.Why != Reason::UsedResult && Editable &&
         File == SM.getFileID(SM.getExpansionLoc(S.Function->getLocation())) &&
         S.Why != Reason::HeaderNotEditable &&
         S.Why != Reason::HeaderEnteredTwice &&
         S.Why != Reason::AlreadyRewritten && S.Why != Reason::OptedOut &&
         S.Why != Reason::ParseErrorInFunction && !S.TypeText.empty() &&
         S.TypeText.find('<') == std::string::npos &&
         (S.Invocation ||
          (Callee->getBeginLoc().isFileID() && Callee->getEndLoc().isFileID()));
}

RewritePlan planRewrite(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                        const std::vector<SiteGroup> &Groups, Variant V,
                        const std::vector<VariantDecision> &Decisions,
                        const EditableHeaders *Headers, bool BlockStrategy,
                        bool RunTimeForm, const UnparsedFunctions *Unparsed) {
  const SourceManager &SM = Ctx.getSourceManager();
  RewritePlan Plan;
  Plan.Unparsed = Unparsed;
  for (const SiteGroup &G : Groups) {
    GroupPlan P;
    P.Group = &G;
    P.Why = G.Why;
    Plan.Groups.push_back(std::move(P));
  }
  if (V == Variant::Floor) {
    Plan.Floor = true;
    for (size_t I = 0; I < Sites.size(); ++I)
      if (floorEditable(SM, Sites[I], Headers))
        Plan.FloorSites.push_back(I);
    return Plan;
  }
  assert(Decisions.size() == Groups.size() && "a decision per group");
  Plan.Order = textOrder(Groups, SM);
  Planner P(Ctx, Sites, Groups, Headers, V == Variant::Auto && BlockStrategy,
            V == Variant::Auto && RunTimeForm);
  std::vector<unsigned> Chains = sharedMatchChains(Sites, Groups, &Decisions);
  P.countJointParts(Plan.Order);
  // The groups of one loop body without braces come one after another in
  // text order (each one's region is the whole body): the braces go on
  // with the last.
  llvm::DenseMap<const Stmt *, size_t> LastInBody;
  for (size_t I : Plan.Order)
    if (!isa<CompoundStmt>(Groups[I].Scope))
      LastInBody[Groups[I].Scope] = I;
  for (size_t I : Plan.Order) {
    P.plan(Plan.Groups[I], Decisions[I], Chains[I]);
    auto It = LastInBody.find(Groups[I].Scope);
    Plan.Groups[I].BracesBody = It != LastInBody.end() && It->second == I;
  }
  return Plan;
}

} // namespace distwar
