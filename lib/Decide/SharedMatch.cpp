//===- SharedMatch.cpp - serial groups that share one key match -----------===//

#include "Decide/SharedMatch.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <cassert>
#include <map>
#include <utility>

using namespace clang;

namespace distwar {

namespace {

/// The variable that is \p G's whole key when its value cannot change after
/// its initialisation (so two reductions of it agree), or null.
const VarDecl *unchangingKeyVar(const AtomicSite &First, const SiteGroup &G) {
  const VarDecl *V = First.Key ? referencedVar(First.Key) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      V->getType().isVolatileQualified() || !G.Function->hasBody())
    return nullptr;
  if (findWrite(G.Function->getBody(), V, /*Through=*/false))
    return nullptr;
  return V;
}

/// Whether \p G is a serial group in a block of statements (not a loop body
/// without braces), in one piece.
bool chainable(const SiteGroup &G, const VariantDecision *D) {
  return G.Why == Reason::None && (!D || D->Kind == GroupVariant::Serial) &&
         G.SplitId == 0 && G.AfterContinue == 0 && G.Scope &&
         isa<CompoundStmt>(G.Scope);
}

/// Whether \p Later's region begins after \p Earlier's ends, in their block.
bool follows(const SiteGroup &Earlier, const SiteGroup &Later) {
  assert(Earlier.Scope == Later.Scope && "one block");
  const auto *Block = cast<CompoundStmt>(Earlier.Scope);
  bool SeenLast = false;
  for (const Stmt *S : Block->body()) {
    if (S == Later.First)
      return SeenLast;
    if (S == Earlier.Last)
      SeenLast = true;
  }
  return false;
}

} // namespace

std::vector<unsigned>
sharedMatchChains(const std::vector<AtomicSite> &Sites,
                  const std::vector<SiteGroup> &Groups,
                  const std::vector<VariantDecision> *Decisions) {
  std::vector<unsigned> Chain(Groups.size(), 0);
  // The latest chainable group of each (block, key variable), and the chain
  // it heads or joined.
  std::map<std::pair<const Stmt *, const VarDecl *>, size_t> Latest;
  unsigned Chains = 0;
  for (size_t I = 0; I < Groups.size(); ++I) {
    const SiteGroup &G = Groups[I];
    if (!chainable(G, Decisions ? &(*Decisions)[I] : nullptr))
      continue;
    const VarDecl *V = unchangingKeyVar(Sites[G.Sites.front()], G);
    if (!V)
      continue;
    auto [It, New] = Latest.try_emplace({G.Scope, V}, I);
    if (New)
      continue;
    size_t Prev = It->second;
    It->second = I;
    if (!follows(Groups[Prev], G))
      continue;
    if (!Chain[Prev])
      Chain[Prev] = ++Chains;
    Chain[I] = Chain[Prev];
  }
  return Chain;
}

} // namespace distwar
