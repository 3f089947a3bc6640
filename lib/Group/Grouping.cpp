//===- Grouping.cpp - sites that update one primitive per iteration -------===//

#include "Group/Grouping.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Uniformity.h"
#include "Find/OpaqueKeys.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"
#include <map>
#include <tuple>

using namespace clang;

namespace distwar {

const Stmt *childOfScope(const AtomicSite &S, const Stmt *Scope) {
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    if (A == Scope)
      return Child;
    Child = A;
  }
  return nullptr;
}

llvm::ArrayRef<Stmt *> scopeStatements(const Stmt *Scope) {
  if (const auto *Block = dyn_cast<CompoundStmt>(Scope))
    return {Block->body_begin(), Block->body_end()};
  // The loop's own slot for its body, as a list of one (the children of a
  // const statement are copies, not slots).
  const Stmt *Body = loopBody(Scope);
  for (Stmt *&Child : const_cast<Stmt *>(Scope)->children())
    if (Child == Body)
      return {&Child, 1};
  llvm_unreachable("a scope is a block or a loop with a body");
}

/// Whether \p Loop's body is one statement without braces that holds every
/// site of \p G: the group's scope is then the loop (SiteGroup::Scope).
static bool bodyHoldsGroup(const Stmt *Loop, const SiteGroup &G,
                           const std::vector<AtomicSite> &Sites) {
  const Stmt *Body = loopBody(Loop);
  return Body && !isa<CompoundStmt>(Body) &&
         llvm::all_of(G.Sites, [&](size_t I) {
           return childOfScope(Sites[I], Loop) == Body;
         });
}

/// One loop iteration or function body: the innermost enclosing loop other
/// than the site's own channel loop.
const Stmt *iterationOf(const AtomicSite &S) {
  for (const Stmt *A : S.Ancestors) {
    if (S.Channel && A == S.Channel->Loop)
      continue;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(A) &&
        !isInvocationWrapper(S, A))
      return A;
  }
  return S.Ancestors.empty() ? nullptr : S.Ancestors.back();
}

/// The innermost block holding every site of \p G inside its iteration (or
/// the iteration's loop, where its body has no braces), and the children
/// holding the first and last site.
static void assignScope(SiteGroup &G, const std::vector<AtomicSite> &Sites) {
  const AtomicSite &First = Sites[G.Sites.front()];
  const AtomicSite &Last = Sites[G.Sites.back()];
  const Stmt *Iteration = iterationOf(First);
  G.Scope = nullptr;
  // A channel loop belongs to its site: the batch goes outside it.
  bool InsideChannel = First.Channel.has_value();
  for (const Stmt *A : First.Ancestors) {
    if (InsideChannel) {
      InsideChannel = A != First.Channel->Loop;
      continue;
    }
    if (A == Iteration) {
      if (bodyHoldsGroup(A, G, Sites))
        G.Scope = A;
      break;
    }
    const auto *Block = dyn_cast<CompoundStmt>(A);
    // The batch goes outside a macro's `do { } while (0)`.
    if (!Block || isInvocationWrapper(First, Block) ||
        !llvm::all_of(G.Sites, [&](size_t I) {
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
    return;
  }
  G.First = childOfScope(First, G.Scope);
  G.Last = childOfScope(Last, G.Scope);
}

bool isLaneIfAbove(const Stmt *A, const Stmt *Child, const SiteGroup &G) {
  const auto *If = dyn_cast<IfStmt>(A);
  return If && Child != If->getCond() && llvm::is_contained(G.LaneIfs, If);
}

bool underLaneIf(const AtomicSite &S, const SiteGroup &G) {
  return llvm::any_of(S.Ancestors, [&](const Stmt *A) {
    return llvm::is_contained(G.LaneIfs, A);
  });
}

/// The `if`s between site \p S and \p Scope whose conditions are not
/// grid-uniform, innermost first. Sets \p OtherControl when something else
/// than blocks, ifs and the channel loop lies in between, and \p Plain to
/// false when one of those ifs declares something or holds the site in its
/// condition (its branch cannot be told from the site's slot alone).
static llvm::SmallVector<const IfStmt *, 2>
varyingConditions(const AtomicSite &S, const Stmt *Scope, UniformityAnalysis &U,
                  bool &OtherControl, bool &Plain) {
  llvm::SmallVector<const IfStmt *, 2> Found;
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    if (A == Scope)
      break;
    if (const auto *If = dyn_cast<IfStmt>(A)) {
      bool Declares = If->getInit() || If->getConditionVariable();
      // A test of the key itself (`if (texel >= 0)`) is the same in all
      // lanes of one key: a tracked field, as for a grid-uniform test.
      bool KeyTest = !Declares && Child != If->getCond() && S.Key &&
                     U.isFunctionOfKey(If->getCond(), S.Key);
      if (Child == If->getCond() || Declares ||
          (!U.isGridUniform(If->getCond()) && !KeyTest)) {
        Found.push_back(If);
        Plain = Plain && Child != If->getCond() && !Declares &&
                !If->isConsteval();
      }
    } else if (!isa<CompoundStmt, ExprWithCleanups, ParenExpr, CStyleCastExpr,
                    AttributedStmt>(A) &&
               !(S.Channel && A == S.Channel->Loop) &&
               !isInvocationWrapper(S, A)) {
      OtherControl = true;
    }
    Child = A;
  }
  return Found;
}

/// Keeps sites under plain lane-dependent `if`s as LaneSet fields, and takes
/// sites under other lane-dependent conditions out of \p G when the others
/// can be batched without them (see groupSites).
static void sortVaryingSites(ASTContext &Ctx, SiteGroup &G,
                             std::vector<AtomicSite> &Sites) {
  if (!G.Scope)
    return;
  UniformityAnalysis U(Ctx, G.Function);
  std::vector<size_t> Kept, Dropped;
  std::vector<const IfStmt *> DroppedUnder; // the innermost varying `if`
  for (size_t I : G.Sites) {
    bool Other = false, Plain = true;
    auto Ifs = varyingConditions(Sites[I], G.Scope, U, Other, Plain);
    if (Ifs.empty() || Other) {
      Kept.push_back(I);
    } else if (Plain) {
      Kept.push_back(I);
      for (const IfStmt *If : Ifs)
        if (!llvm::is_contained(G.LaneIfs, If))
          G.LaneIfs.push_back(If);
    } else {
      Dropped.push_back(I);
      DroppedUnder.push_back(Ifs.front());
    }
  }
  if (Dropped.empty() || Kept.empty())
    return;
  // A plain atomic left next to the batch must not add to one of its
  // buffers (conservative: atomics commute, but keep the group whole).
  for (size_t D : Dropped)
    for (size_t K : Kept)
      if (Sites[D].Buffer == Sites[K].Buffer &&
          Sites[D].BufferField == Sites[K].BufferField)
        return;
  for (size_t I = 0; I < Dropped.size(); ++I)
    Sites[Dropped[I]].Why =
        Verdict(Reason::VaryingCondition,
                placeAt(Ctx.getSourceManager(), DroppedUnder[I]->getBeginLoc(),
                        "this condition may differ across lanes"));
  G.Sites = Kept;
  assignScope(G, Sites);
  // The scope may have narrowed: its lane-dependent ifs are found again.
  G.LaneIfs.clear();
  sortVaryingSites(Ctx, G, Sites);
}

SiteGroup singleSiteGroup(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                          size_t I) {
  SiteGroup G;
  G.Sites.push_back(I);
  G.Function = Sites[I].Function;
  assignScope(G, Sites);
  if (!G.Scope)
    return G;
  // As sortVaryingSites keeps a group's only site.
  UniformityAnalysis U(Ctx, G.Function);
  bool Other = false, Plain = true;
  auto Ifs = varyingConditions(Sites[I], G.Scope, U, Other, Plain);
  if (!Other && Plain)
    G.LaneIfs.assign(Ifs.begin(), Ifs.end());
  return G;
}

std::vector<SiteGroup> groupSites(ASTContext &Ctx,
                                  std::vector<AtomicSite> &Sites) {
  using GroupKey = std::tuple<const Stmt *, unsigned, std::string>;
  std::multimap<GroupKey, size_t> Index;
  std::vector<llvm::FoldingSetNodeID> KeyIds;
  std::vector<SiteGroup> Groups;
  for (size_t I = 0; I < Sites.size(); ++I) {
    const AtomicSite &S = Sites[I];
    if (S.Why != Reason::None)
      continue;
    llvm::FoldingSetNodeID Id;
    // Uniform addresses meet in one group whatever their buffers.
    if (S.AddressIsUniform)
      Id.AddString("uniform address");
    else
      profileGroupKey(S.Key, Id, Ctx);
    // A key read as a buffer pointer or a whole address names something else
    // than the same expression read as an index.
    Id.AddBoolean(S.KeyIsBuffer);
    Id.AddBoolean(S.KeyIsAddress);
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
    assignScope(G, Sites);
    sortVaryingSites(Ctx, G, Sites);
  }
  return Groups;
}

} // namespace distwar
