//===- VariantChoice.cpp - which reduction each group gets ----------------===//

#include "distwar/VariantChoice.h"
#include "distwar/GroupSafety.h"
#include "distwar/VarWrites.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace distwar {

const char *variantName(GroupVariant K) {
  switch (K) {
  case GroupVariant::Serial:
    return "serial";
  case GroupVariant::Butterfly:
    return "butterfly";
  case GroupVariant::ButterflyUniform:
    return "butterfly-uniform";
  }
  return "serial";
}

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

std::vector<VariantDecision>
chooseVariants(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
               std::vector<SiteGroup> &Groups, Variant V) {
  splitAtContinues(Sites, Groups);
  std::vector<VariantDecision> Decisions(Groups.size());
  std::vector<Reason> SerialWhy(Groups.size());
  for (size_t I = 0; I < Groups.size(); ++I)
    SerialWhy[I] = checkGroupSafety(Ctx, Sites, Groups[I]);

  // First each group alone: its key (the loop-condition terms the flag
  // removes may make it uniform) and whether it wants a butterfly.
  std::vector<bool> Wants(Groups.size(), false);
  std::vector<KeyUniformity> Keys(Groups.size(), KeyUniformity::Varying);
  for (size_t I = 0; I < Groups.size(); ++I) {
    SiteGroup &G = Groups[I];
    if (V == Variant::Serial || SerialWhy[I] != Reason::None) {
      // The butterfly needs what the serial variant needs between the sites.
      G.Why = SerialWhy[I];
      continue;
    }
    UniformityAnalysis U(Ctx, G.Function);
    FlagPlan Alone;
    Reason AloneWhy = planActiveFlag(Ctx, Sites, G, U, Alone);
    if (AloneWhy == Reason::None && !Alone.UniformTrips)
      AloneWhy = Alone.TripReason;
    Keys[I] = ownsItsPrimitive(Sites, G)
                  ? KeyUniformity::Distinct
                  : U.classifyKey(Sites[G.Sites.front()].Key);
    if (V == Variant::Auto && Keys[I] == KeyUniformity::Distinct) {
      G.Why = Reason::DistinctKeys;
      continue;
    }
    Wants[I] = Keys[I] == KeyUniformity::Uniform ||
               Keys[I] == KeyUniformity::LikelyUniform ||
               V == Variant::Butterfly;
    if (!Wants[I])
      Decisions[I].Note =
          AloneWhy != Reason::None ? AloneWhy : Reason::KeyVaries;
  }

  // Then per iteration: the groups that want a butterfly share one live
  // flag; one that cannot have it leaves the others and is planned again
  // without it.
  llvm::DenseMap<const Stmt *, std::vector<size_t>> PerIteration;
  for (size_t I = 0; I < Groups.size(); ++I)
    if (Groups[I].Why == Reason::None)
      PerIteration[iterationOf(Sites[Groups[I].Sites.front()])].push_back(I);
  for (auto &Entry : PerIteration) {
    std::vector<size_t> &Members = Entry.second;
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
        if (Keys[I] == KeyUniformity::Uniform)
          D.Kind = GroupVariant::ButterflyUniform;
        else
          D.Kind = GroupVariant::Butterfly;
      }
    }
    for (size_t I : Members)
      if (!Wants[I])
        Decisions[I].Kind = GroupVariant::Serial;
  }
  return Decisions;
}

} // namespace distwar
