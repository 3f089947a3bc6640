//===- ContinueSplit.cpp - groups cut at per-lane continues ---------------===//

#include "Group/ContinueSplit.h"
#include "Analysis/LoopExits.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

void splitAtContinues(const std::vector<AtomicSite> &Sites,
                      std::vector<SiteGroup> &Groups) {
  std::vector<SiteGroup> Out;
  unsigned Splits = 0;
  for (SiteGroup &G : Groups) {
    if (G.Why != Reason::None || !G.Scope || !G.First || !G.Last ||
        G.Sites.size() < 2) {
      Out.push_back(std::move(G));
      continue;
    }
    llvm::ArrayRef<Stmt *> Body = scopeStatements(G.Scope);
    size_t Begin = llvm::find(Body, G.First) - Body.begin();
    size_t End = llvm::find(Body, G.Last) - Body.begin();
    llvm::DenseSet<const Stmt *> Holding;
    for (size_t I : G.Sites)
      Holding.insert(childOfScope(Sites[I], G.Scope));
    std::vector<size_t> Cuts;
    bool Other = false;
    for (size_t I = Begin; I <= End && I < Body.size(); ++I) {
      bool Continue = false;
      forEachLoopExit(Body[I], [&](const LoopExit &E) {
        (E.Kind == ExitKind::Continue ? Continue : Other) = true;
        return true;
      });
      if (Continue && Holding.count(Body[I]))
        Other = true; // a continue among a statement's sites: no cut
      if (Continue)
        Cuts.push_back(I);
    }
    if (Other || Cuts.empty()) {
      Out.push_back(std::move(G));
      continue;
    }
    SiteGroup Part = G;
    Part.Sites.clear();
    Part.SplitId = ++Splits;
    auto Flush = [&] {
      if (Part.Sites.empty())
        return;
      Part.First = childOfScope(Sites[Part.Sites.front()], G.Scope);
      Part.Last = childOfScope(Sites[Part.Sites.back()], G.Scope);
      Out.push_back(Part);
      Part.Sites.clear();
    };
    size_t Cut = 0;
    for (size_t I : G.Sites) {
      size_t At =
          llvm::find(Body, childOfScope(Sites[I], G.Scope)) - Body.begin();
      for (; Cut < Cuts.size() && Cuts[Cut] < At; ++Cut)
        Flush();
      Part.Sites.push_back(I);
    }
    Flush();
  }
  Groups = std::move(Out);
}

} // namespace distwar
