//===- Grouping.cpp - sites that update one primitive per iteration -------===//

#include "distwar/Grouping.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"
#include <map>
#include <tuple>

using namespace clang;

namespace distwar {

const Stmt *childOfScope(const AtomicSite &S, const CompoundStmt *Scope) {
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    if (A == Scope)
      return Child;
    Child = A;
  }
  return nullptr;
}

/// One loop iteration or function body: the innermost enclosing loop other
/// than the site's own channel loop.
static const Stmt *iterationOf(const AtomicSite &S) {
  for (const Stmt *A : S.Ancestors) {
    if (S.Channel && A == S.Channel->Loop)
      continue;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(A))
      return A;
  }
  return S.Ancestors.empty() ? nullptr : S.Ancestors.back();
}

std::vector<SiteGroup> groupSites(ASTContext &Ctx,
                                  const std::vector<AtomicSite> &Sites) {
  using GroupKey = std::tuple<const Stmt *, unsigned, std::string>;
  std::multimap<GroupKey, size_t> Index;
  std::vector<llvm::FoldingSetNodeID> KeyIds;
  std::vector<SiteGroup> Groups;
  for (size_t I = 0; I < Sites.size(); ++I) {
    const AtomicSite &S = Sites[I];
    if (S.Why != Reason::None)
      continue;
    llvm::FoldingSetNodeID Id;
    S.Key->Profile(Id, Ctx, /*Canonical=*/true);
    // Keys are compared by structure; the profile's hash picks a bucket and
    // the full ID is compared below.
    unsigned Hash = Id.ComputeHash();
    GroupKey K{iterationOf(S), Hash, S.TypeText};
    auto [It, End] = Index.equal_range(K);
    bool Found = false;
    for (; It != End; ++It)
      if (KeyIds[It->second] == Id) {
        Groups[It->second].Sites.push_back(I);
        Found = true;
        break;
      }
    if (Found)
      continue;
    Index.emplace(K, Groups.size());
    KeyIds.push_back(Id);
    SiteGroup G;
    G.Sites.push_back(I);
    G.Function = S.Function;
    Groups.push_back(std::move(G));
  }

  for (SiteGroup &G : Groups) {
    const AtomicSite &First = Sites[G.Sites.front()];
    const AtomicSite &Last = Sites[G.Sites.back()];
    const Stmt *Iteration = iterationOf(First);
    for (const Stmt *A : First.Ancestors) {
      if (A == Iteration)
        break; // a loop body that is not a block: no place for the batch
      const auto *Block = dyn_cast<CompoundStmt>(A);
      if (!Block || !llvm::all_of(G.Sites, [&](size_t I) {
            return childOfScope(Sites[I], Block) != nullptr;
          }))
        continue;
      G.Scope = Block;
      break;
    }
    if (!G.Scope && isa<CompoundStmt>(Iteration) && !First.Ancestors.empty() &&
        Iteration == First.Ancestors.back())
      G.Scope = cast<CompoundStmt>(Iteration); // the function body itself
    if (!G.Scope) {
      G.Why = Reason::NotAStatement;
      continue;
    }
    G.First = childOfScope(First, G.Scope);
    G.Last = childOfScope(Last, G.Scope);
  }
  return Groups;
}

} // namespace distwar
