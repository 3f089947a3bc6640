//===- VariantChoice.cpp - which reduction each group gets ----------------===//

#include "Decide/VariantChoice.h"
#include "Analysis/VarWrites.h"
#include "Decide/GroupSafety.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include <cassert>

using namespace clang;

namespace distwar {

/// True when \p S (inside a loop when \p InLoop) adds to \p V with `+=` or
/// `-=` inside a loop.
static bool accumulatesInLoop(const Stmt *S, const VarDecl *V, bool InLoop) {
  if (!S)
    return false;
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
      CA && InLoop && referencedVar(CA->getLHS()) == V &&
      (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign))
    return true;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return accumulatesInLoop(C, V, InLoop || Loop);
  });
}

/// The per-primitive layout (one thread per primitive): the group's atomics
/// run once per thread, outside every loop, each adding a local that a loop
/// accumulated. Every lane holds its own primitive's whole gradient, so
/// lanes rarely share a key: batching gains nothing.
static bool ownsItsPrimitive(const std::vector<AtomicSite> &Sites,
                             const SiteGroup &G) {
  const Stmt *Body = G.Function->getBody();
  return llvm::all_of(G.Sites, [&](size_t I) {
    const AtomicSite &S = Sites[I];
    const VarDecl *Value = referencedVar(S.Call->getArg(1));
    return iterationOf(S) == Body && Value && Value->isLocalVarDecl() &&
           accumulatesInLoop(Body, Value, false);
  });
}

/// One element per lane: a key that is the element's address, or a group
/// of one field keyed by a pointer (`atomicAdd(p, v)`, `&p[2]`).
static bool isSingleElement(llvm::ArrayRef<AtomicSite> Sites,
                            const SiteGroup &G) {
  const AtomicSite &First = Sites[G.Sites.front()];
  return First.KeyIsAddress ||
         (First.KeyIsBuffer && G.Sites.size() == 1 && !First.Channel);
}

/// The largest trip count of \p CL over the instantiations of \p F, a
/// function template, where the loop runs from a constant to one of its
/// parameters (`ch < C`), or nullopt.
static std::optional<int64_t> instantiatedTripCount(const ChannelLoop &CL,
                                                    const FunctionDecl *F,
                                                    ASTContext &Ctx) {
  const auto *Ref = dyn_cast<DeclRefExpr>(CL.Upper->IgnoreParenImpCasts());
  const auto *Parm =
      Ref ? dyn_cast<NonTypeTemplateParmDecl>(Ref->getDecl()) : nullptr;
  const FunctionTemplateDecl *FT = F->getDescribedFunctionTemplate();
  Expr::EvalResult L;
  if (!Parm || !FT || Parm->getDepth() != 0 ||
      CL.Lower->isValueDependent() || !CL.Lower->EvaluateAsInt(L, Ctx))
    return std::nullopt;
  std::optional<int64_t> Most;
  for (const FunctionDecl *Spec : FT->specializations()) {
    const TemplateArgumentList *Args = Spec->getTemplateSpecializationArgs();
    if (!Args || Parm->getIndex() >= Args->size() ||
        Args->get(Parm->getIndex()).getKind() != TemplateArgument::Integral)
      return std::nullopt;
    int64_t Trip = Args->get(Parm->getIndex()).getAsIntegral().getExtValue() -
                   L.Val.getInt().getExtValue();
    Most = std::max(Most.value_or(Trip), Trip);
  }
  return Most;
}

std::optional<int64_t> fieldCount(ASTContext &Ctx,
                                  const std::vector<AtomicSite> &Sites,
                                  const SiteGroup &G) {
  int64_t Count = 0;
  for (size_t I : G.Sites) {
    if (!Sites[I].Channel) {
      ++Count;
      continue;
    }
    std::optional<int64_t> Trip = constantTripCount(*Sites[I].Channel, Ctx);
    if (!Trip)
      Trip = instantiatedTripCount(*Sites[I].Channel, G.Function, Ctx);
    if (!Trip)
      return std::nullopt;
    Count += std::max<int64_t>(0, *Trip);
  }
  return Count;
}

/// Whether the butterflies \p P and \p Q, consecutive parts of one group
/// split at a per-lane continue, may become one reduction: both directly in
/// the loop body (no holder if), Q the segment right after P, and their
/// fields fit one batch.
static bool joinable(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                     const SiteGroup &P, const VariantDecision &DP,
                     const SiteGroup &Q, const VariantDecision &DQ) {
  if (!P.SplitId || P.SplitId != Q.SplitId || P.Why != Reason::None ||
      Q.Why != Reason::None || DP.Kind == GroupVariant::Serial ||
      DQ.Kind == GroupVariant::Serial)
    return false;
  const FlagPlan &FP = DP.Flags, &FQ = DQ.Flags;
  if (FP.Body != FQ.Body || FP.GroupUnderIf || FQ.GroupUnderIf ||
      FQ.Segment != FP.Segment + 1 || FQ.PrevHolder != FP.Holder ||
      FQ.LiveInit.empty())
    return false;
  std::optional<int64_t> NP = fieldCount(Ctx, Sites, P);
  std::optional<int64_t> NQ = fieldCount(Ctx, Sites, Q);
  return NP && NQ && *NP + *NQ <= kMaxBatchFields;
}

/// Joins consecutive parts of a group split at per-lane continues into one
/// butterfly where the continues became `live = false` anyway: one batch,
/// the later parts' fields LaneSet slots, one reduction after the last part
/// with the lanes that completed the first part active (FlagPlan::PartEnds).
/// The joined group must be safe as a whole (reads between the parts now
/// run before the first part's atomics).
static void joinContinueParts(ASTContext &Ctx,
                              const std::vector<AtomicSite> &Sites,
                              std::vector<SiteGroup> &Groups,
                              std::vector<VariantDecision> &Decisions) {
  assert(Groups.size() == Decisions.size());
  for (size_t I = 0; I + 1 < Groups.size();) {
    SiteGroup &P = Groups[I];
    const SiteGroup &Q = Groups[I + 1];
    VariantDecision &DP = Decisions[I];
    const VariantDecision &DQ = Decisions[I + 1];
    if (!joinable(Ctx, Sites, P, DP, Q, DQ)) {
      ++I;
      continue;
    }
    SiteGroup Joined = P;
    Joined.Sites.insert(Joined.Sites.end(), Q.Sites.begin(), Q.Sites.end());
    Joined.Last = Q.Last;
    for (const IfStmt *If : Q.LaneIfs)
      if (!llvm::is_contained(Joined.LaneIfs, If))
        Joined.LaneIfs.push_back(If);
    if (!Joined.AfterContinue)
      Joined.AfterContinue = P.Sites.size();
    assert(DP.Flags.Continues == DQ.Flags.Continues &&
           "segments of one iteration share its converted continues");
    if (checkGroupSafety(Ctx, Sites, Joined, DP.Flags.Continues) !=
        Reason::None) {
      ++I;
      continue;
    }
    const FlagPlan &FQ = DQ.Flags;
    VariantDecision D = DP;
    D.Flags.PartEnds.push_back({DP.Flags.Holder, DP.Flags.GuardsOpen});
    D.Flags.Holder = FQ.Holder;
    D.Flags.GuardsOpen = FQ.GuardsOpen;
    D.Flags.GuardTrailing = FQ.GuardTrailing;
    if (D.Kind != DQ.Kind)
      D.Kind = GroupVariant::Butterfly; // one of them checks its key
    if (D.Note == Reason::None)
      D.Note = DQ.Note;
    for (size_t J = 0; J < Groups.size(); ++J) {
      FlagPlan &F = Decisions[J].Flags;
      if (J == I || J == I + 1 || F.Body != DP.Flags.Body)
        continue;
      --F.Segments;
      if (F.Segment > FQ.Segment)
        --F.Segment;
    }
    --D.Flags.Segments;
    P = std::move(Joined);
    DP = std::move(D);
    Groups.erase(Groups.begin() + I + 1);
    Decisions.erase(Decisions.begin() + I + 1);
  }
}

/// Group \p G alone: its key (the loop-condition terms the flag removes may
/// make it uniform) and whether it wants a butterfly; sets G.Why where the
/// variant refuses it and \p D's note where it stays serial.
static bool wantsButterfly(ASTContext &Ctx,
                           const std::vector<AtomicSite> &Sites, SiteGroup &G,
                           Variant V, KeyUniformity &Key, VariantDecision &D) {
  UniformityAnalysis U(Ctx, G.Function);
  FlagPlan Alone;
  Reason AloneWhy = planActiveFlag(Ctx, Sites, G, U, Alone);
  if (AloneWhy == Reason::None && !Alone.UniformTrips)
    AloneWhy = Alone.TripReason;
  // A key that may vary, added once from a loop's sum: one thread per
  // primitive. A key proven (or likely) the same in every lane is one
  // element the whole warp adds to, whatever the value.
  Key = U.classifyKey(Sites[G.Sites.front()].Key);
  if (Key == KeyUniformity::Varying && ownsItsPrimitive(Sites, G))
    Key = KeyUniformity::Distinct;
  if (V == Variant::Auto && Key == KeyUniformity::Distinct) {
    G.Why = Reason::DistinctKeys;
    return false;
  }
  if (V == Variant::Auto && isSingleElement(Sites, G) &&
      Key == KeyUniformity::Varying) {
    // A primitive's run-time channels (a per-lane base, a channel loop) are
    // what pixels over one primitive share, but whether lanes meet is a
    // property of the data: sphere colours reduce well. Such a site starts
    // plain and reduces only where a tuner measures that it pays. Other
    // single elements are scatters (texture corners measured at most
    // 1.03x), left alone.
    if (!Sites[G.Sites.front()].KeyIsRunTimeChannel) {
      G.Why = Reason::ElementKeyVaries;
      return false;
    }
    D.StartNote = Reason::ElementKeyVaries;
  }
  // A versioned loop's batch is declared in its versions, not at the
  // iteration's head where a butterfly's goes.
  if (versionedLoopOf(Sites, G)) {
    D.Note = Reason::VersionedLoop;
    return false;
  }
  bool Wants = Key == KeyUniformity::Uniform ||
               Key == KeyUniformity::LikelyUniform || V == Variant::Butterfly;
  if (!Wants)
    D.Note = AloneWhy != Reason::None ? AloneWhy : Reason::KeyVaries;
  return Wants;
}

/// The groups of one iteration (\p Members) that want a butterfly share one
/// live flag; one that cannot have it leaves the others, and the rest are
/// planned again without it. The others stay serial.
static void planIteration(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                          std::vector<SiteGroup> &Groups,
                          llvm::ArrayRef<size_t> Members,
                          std::vector<bool> &Wants,
                          llvm::ArrayRef<KeyUniformity> Keys,
                          std::vector<VariantDecision> &Decisions) {
  bool Changed = true;
  while (Changed) {
    Changed = false;
    std::vector<const SiteGroup *> Segs, Others;
    for (size_t I : Members)
      (Wants[I] ? Segs : Others).push_back(&Groups[I]);
    for (size_t I : Members) {
      if (!Wants[I])
        continue;
      SiteGroup &G = Groups[I];
      VariantDecision &D = Decisions[I];
      D = VariantDecision();
      UniformityAnalysis U(Ctx, G.Function);
      Reason Flag = planActiveFlag(Ctx, Sites, G, U, D.Flags, Segs, Others);
      if (Flag == Reason::None && !D.Flags.UniformTrips)
        Flag = D.Flags.TripReason;
      if (Flag != Reason::None) {
        D = VariantDecision();
        D.Note = Flag;
        Wants[I] = false;
        Changed = true;
        break;
      }
      D.Note = D.Flags.EarlyReturnNote;
      D.Kind = Keys[I] == KeyUniformity::Uniform
                   ? GroupVariant::ButterflyUniform
                   : GroupVariant::Butterfly;
    }
  }
  for (size_t I : Members)
    if (!Wants[I])
      Decisions[I].Kind = GroupVariant::Serial;
}

/// A group of uniform addresses (Find's AddressIsUniform: one batch
/// whatever their buffers) that cannot be deferred as a whole becomes one
/// group per site, as each element was before such groups: a call between
/// two camera gradients then stops neither.
static void splitUnsafeUniformGroups(ASTContext &Ctx,
                                     const std::vector<AtomicSite> &Sites,
                                     std::vector<SiteGroup> &Groups) {
  bool Split = false;
  for (size_t I = 0; I < Groups.size(); ++I) {
    const SiteGroup &G = Groups[I];
    if (G.Sites.size() < 2 || !Sites[G.Sites.front()].AddressIsUniform ||
        checkGroupSafety(Ctx, Sites, G) == Reason::None)
      continue;
    std::vector<SiteGroup> Parts;
    for (size_t S : G.Sites)
      Parts.push_back(singleSiteGroup(Ctx, Sites, S));
    Groups.erase(Groups.begin() + I);
    Groups.insert(Groups.begin() + I, Parts.begin(), Parts.end());
    I += Parts.size() - 1;
    Split = true;
  }
  // Groups stay in source order of their first site.
  if (Split)
    llvm::stable_sort(Groups, [](const SiteGroup &A, const SiteGroup &B) {
      return A.Sites.front() < B.Sites.front();
    });
}

std::vector<VariantDecision>
chooseVariants(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
               std::vector<SiteGroup> &Groups, Variant V) {
  splitUnsafeUniformGroups(Ctx, Sites, Groups);
  std::vector<VariantDecision> Decisions(Groups.size());
  std::vector<bool> Wants(Groups.size(), false);
  std::vector<KeyUniformity> Keys(Groups.size(), KeyUniformity::Varying);
  std::vector<Verdict> SerialWhy(Groups.size());
  for (size_t I = 0; I < Groups.size(); ++I)
    SerialWhy[I] = checkGroupSafety(Ctx, Sites, Groups[I]);
  for (size_t I = 0; I < Groups.size(); ++I) {
    // The butterfly needs what the serial variant needs between the sites.
    if (V == Variant::Serial || SerialWhy[I] != Reason::None)
      Groups[I].Why = SerialWhy[I];
    else
      Wants[I] =
          wantsButterfly(Ctx, Sites, Groups[I], V, Keys[I], Decisions[I]);
  }
  llvm::MapVector<const Stmt *, std::vector<size_t>> PerIteration;
  for (size_t I = 0; I < Groups.size(); ++I)
    if (Groups[I].Why == Reason::None)
      PerIteration[iterationOf(Sites[Groups[I].Sites.front()])].push_back(I);
  for (auto &[Iteration, Members] : PerIteration)
    planIteration(Ctx, Sites, Groups, Members, Wants, Keys, Decisions);
  joinContinueParts(Ctx, Sites, Groups, Decisions);
  return Decisions;
}

} // namespace distwar
