//===- VariantChoice.cpp - which reduction each group gets ----------------===//

#include "distwar/VariantChoice.h"
#include "distwar/GroupSafety.h"
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

std::vector<VariantDecision>
chooseVariants(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
               std::vector<SiteGroup> &Groups, Variant V) {
  std::vector<VariantDecision> Decisions(Groups.size());
  std::vector<Reason> SerialWhy(Groups.size());
  // Groups per loop iteration: only one of them may own an active flag.
  llvm::DenseMap<const Stmt *, unsigned> PerIteration;
  for (size_t I = 0; I < Groups.size(); ++I) {
    SerialWhy[I] = checkGroupSafety(Ctx, Sites, Groups[I]);
    if (SerialWhy[I] == Reason::None)
      ++PerIteration[iterationOf(Sites[Groups[I].Sites.front()])];
  }
  for (size_t I = 0; I < Groups.size(); ++I) {
    SiteGroup &G = Groups[I];
    VariantDecision &D = Decisions[I];
    if (V == Variant::Serial || SerialWhy[I] != Reason::None) {
      // The butterfly needs what the serial variant needs between the sites.
      G.Why = SerialWhy[I];
      continue;
    }
    const AtomicSite &First = Sites[G.Sites.front()];
    UniformityAnalysis U(Ctx, G.Function);
    Reason Flag = Reason::SeveralGroupsInIteration;
    if (PerIteration[iterationOf(First)] == 1)
      Flag = planActiveFlag(Ctx, Sites, G, U, D.Flags);
    KeyUniformity Key = U.classifyKey(First.Key);
    if (V == Variant::Auto && Key == KeyUniformity::Distinct) {
      G.Why = Reason::DistinctKeys;
      continue;
    }
    if (Flag == Reason::None && !D.Flags.UniformTrips)
      Flag = D.Flags.TripReason;
    if (Flag != Reason::None) {
      D.Note = Flag;
      continue; // serial
    }
    if (Key == KeyUniformity::Uniform)
      D.Kind = GroupVariant::ButterflyUniform;
    else if (Key == KeyUniformity::LikelyUniform || V == Variant::Butterfly)
      D.Kind = GroupVariant::Butterfly;
    else
      D.Note = Reason::KeyVaries;
  }
  return Decisions;
}

} // namespace distwar
