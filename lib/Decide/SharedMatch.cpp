//===- SharedMatch.cpp - serial groups that share one key match -----------===//

#include "Decide/SharedMatch.h"
#include "Analysis/VarWrites.h"
#include "Decide/GroupSafety.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <cassert>
#include <map>
#include <utility>

using namespace clang;

namespace distwar {

namespace {

/// Whether \p S may change \p V other than by an assignment, increment or
/// decrement that names it (its address taken, a non-const reference bound
/// to it, passed where a callee may write it): a change no statement shows.
bool changedIndirectly(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && referencedVar(BO->getLHS()) == V)
    return changedIndirectly(BO->getRHS(), V);
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp() &&
      referencedVar(UO->getSubExpr()) == V)
    return false;
  const Stmt *W = findWrite(S, V, /*Through=*/false);
  if (!W)
    return false;
  if (W == S)
    return true;
  for (const Stmt *Child : S->children())
    if (changedIndirectly(Child, V))
      return true;
  return false;
}

/// The variable that is \p G's whole key when only statements that name it
/// change it, or null.
const VarDecl *trackedKeyVar(const AtomicSite &First, const SiteGroup &G) {
  const VarDecl *V = First.Key ? referencedVar(First.Key) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      V->getType().isVolatileQualified() || !G.Function->hasBody())
    return nullptr;
  if (changedIndirectly(G.Function->getBody(), V))
    return nullptr;
  return V;
}

/// Whether \p G is a serial group in a block of statements (not a loop body
/// without braces), in one piece, and not in a versioned loop (whose
/// versions would hide a KeptPeers declared there).
bool chainable(const std::vector<AtomicSite> &Sites, const SiteGroup &G,
               const VariantDecision *D) {
  return G.Why == Reason::None && (!D || D->Kind == GroupVariant::Serial) &&
         G.SplitId == 0 && G.AfterContinue == 0 && G.Scope &&
         isa<CompoundStmt>(G.Scope) && !versionedLoopOf(Sites, G);
}

/// Whether \p Later's region begins after \p Earlier's ends, in their
/// block, and no statement from the chain's first (\p Head) to \p Later's
/// last assigns \p V: the key keeps its value from the first match to
/// \p Later's reduction (the KeptPeers is declared anew before the first).
bool follows(const SiteGroup &Head, const SiteGroup &Earlier,
             const SiteGroup &Later, const VarDecl *V) {
  assert(Earlier.Scope == Later.Scope && Head.Scope == Later.Scope &&
         "one block");
  const auto *Block = cast<CompoundStmt>(Earlier.Scope);
  bool SeenLast = false, InChain = false;
  for (const Stmt *S : Block->body()) {
    if (S == Head.First)
      InChain = true;
    if (S == Later.First && !SeenLast)
      return false;
    if (InChain && findWrite(S, V, /*Through=*/false))
      return false;
    if (S == Earlier.Last)
      SeenLast = true;
    if (S == Later.Last)
      return SeenLast;
  }
  return false;
}

} // namespace

std::vector<unsigned>
sharedMatchChains(const std::vector<AtomicSite> &Sites,
                  const std::vector<SiteGroup> &Groups,
                  const std::vector<VariantDecision> *Decisions) {
  std::vector<unsigned> Chain(Groups.size(), 0);
  // The latest chainable group of each (block, key variable) and the first
  // group of the chain it heads or joined.
  struct Last {
    size_t Group, Head;
  };
  std::map<std::pair<const Stmt *, const VarDecl *>, Last> Latest;
  unsigned Chains = 0;
  for (size_t I = 0; I < Groups.size(); ++I) {
    const SiteGroup &G = Groups[I];
    if (!chainable(Sites, G, Decisions ? &(*Decisions)[I] : nullptr))
      continue;
    const VarDecl *V = trackedKeyVar(Sites[G.Sites.front()], G);
    if (!V)
      continue;
    auto [It, New] = Latest.try_emplace({G.Scope, V}, Last{I, I});
    if (New)
      continue;
    Last Prev = It->second;
    if (!follows(Groups[Prev.Head], Groups[Prev.Group], G, V)) {
      It->second = {I, I};
      continue;
    }
    It->second = {I, Prev.Head};
    if (!Chain[Prev.Group])
      Chain[Prev.Group] = ++Chains;
    Chain[I] = Chain[Prev.Group];
  }
  return Chain;
}

} // namespace distwar
