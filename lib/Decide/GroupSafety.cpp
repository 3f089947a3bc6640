//===- GroupSafety.cpp - may a group's atomics be deferred? ---------------===//

#include "Decide/GroupSafety.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "Decide/RegionChecker.h"
#include "Find/OpaqueKeys.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

using namespace clang;

namespace distwar {

/// The statements of the group's region, in order.
static llvm::ArrayRef<Stmt *> regionOf(const SiteGroup &G) {
  llvm::ArrayRef<Stmt *> Body(G.Scope->body_begin(), G.Scope->body_end());
  size_t Begin = 0, End = 0;
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] == G.First)
      Begin = I;
    if (Body[I] == G.Last)
      End = I;
  }
  return Body.slice(Begin, End - Begin + 1);
}

const Stmt *findIterationExit(const SiteGroup &G,
                              llvm::ArrayRef<const ContinueStmt *> Converted) {
  for (const Stmt *S : regionOf(G))
    if (const Stmt *Exit = firstLoopExit(S, Converted))
      return Exit;
  return nullptr;
}

/// Between the site and the group's block only blocks, the site's own
/// channel loop, ifs on grid-uniform conditions (conditional fields: the
/// slot keeps a null address when the field is not written) and the group's
/// lane-dependent ifs (LaneSet fields) may lie; anything else makes the site
/// conditional.
static bool isUnconditionalIn(const AtomicSite &S, const SiteGroup &G,
                              UniformityAnalysis &U) {
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    const Stmt *Below = Child;
    Child = A;
    if (A == G.Scope)
      return true;
    if (isLaneIfAbove(A, Below, G))
      continue;
    if (isa<CompoundStmt, ExprWithCleanups, ParenExpr, CStyleCastExpr>(A) ||
        isInvocationWrapper(S, A))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(A);
        If && Below != If->getCond() && !If->getInit() &&
        !If->getConditionVariable() && U.isGridUniform(If->getCond()))
      continue;
    if (S.Channel && A == S.Channel->Loop)
      continue;
    if (const auto *AS = dyn_cast<AttributedStmt>(A);
        AS && S.Channel && AS->getSubStmt() == S.Channel->Loop)
      continue;
    return false;
  }
  return false;
}

/// The call of \p G's atomic that statement \p S is, alone, or null.
static const CallExpr *siteCallIn(const std::vector<AtomicSite> &Sites,
                                  const SiteGroup &G, const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(E))
    E = EWC->getSubExpr();
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  for (size_t I : G.Sites)
    if (Sites[I].Call == E)
      return Sites[I].Call;
  return nullptr;
}

/// Whether region statement \p S may change key variable \p V. A key that
/// is the buffer pointer changes only with the pointer's own storage (the
/// group's atomics store through it). The group's own atomic calls take
/// their address by value: only their arguments are looked at (in a
/// template, a call not yet resolved might otherwise take \p V by
/// reference).
static bool writesKeyVariable(const std::vector<AtomicSite> &Sites,
                              const SiteGroup &G, const Stmt *S,
                              const VarDecl *V) {
  const AtomicSite &First = Sites[G.Sites.front()];
  auto Writes = [&](const Stmt *X) {
    return First.KeyIsBuffer ? findStorageWrite(X, V) != nullptr
                             : findWrite(X, V, /*Through=*/true) != nullptr;
  };
  if (const CallExpr *Call = siteCallIn(Sites, G, S))
    return llvm::any_of(Call->arguments(), Writes);
  return Writes(S);
}

Reason checkGroupSafety(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                        const SiteGroup &G,
                        llvm::ArrayRef<const ContinueStmt *> Converted) {
  if (G.Why != Reason::None)
    return G.Why;
  llvm::DenseSet<const VarDecl *> Buffers;
  UniformityAnalysis U(Ctx, G.Function);
  for (size_t I : G.Sites) {
    if (!isUnconditionalIn(Sites[I], G, U))
      return Reason::ConditionalSite;
    Buffers.insert(Sites[I].Buffer);
  }
  if (findIterationExit(G, Converted))
    return Reason::LeavesIteration;
  // Opaque call keys differing in constant arguments (one texel's channels)
  // share a primitive only when every lane evaluates the same call.
  const Expr *FirstKey = Sites[G.Sites.front()].Key;
  if (llvm::any_of(
          G.Sites,
          [&](size_t I) { return keysDiffer(FirstKey, Sites[I].Key, Ctx); }) &&
      !U.isUniform(FirstKey))
    return Reason::OpaqueKeyVaries;

  // The key is evaluated again at the reduction: its variables must be
  // visible before the region and unchanged inside it.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation RegionBegin = G.First->getBeginLoc();
  const AtomicSite &FirstSite = Sites[G.Sites.front()];
  llvm::SmallVector<const VarDecl *, 4> KeyVars;
  collectVars(FirstSite.Key, KeyVars);
  for (const VarDecl *V : KeyVars) {
    if (V->isLocalVarDecl() &&
        !SM.isBeforeInTranslationUnit(V->getLocation(), RegionBegin))
      return Reason::NotVisibleAtBatch;
    for (const Stmt *S : regionOf(G))
      if (writesKeyVariable(Sites, G, S, V))
        return Reason::KeyModified;
  }
  // Trip counts are spelled in the batch declaration, before the region.
  if (Reason R = tripCountsVisibleAt(Ctx, Sites, G, RegionBegin);
      R != Reason::None)
    return R;

  // The reduction after the region evaluates the addresses and the key
  // again: a declaration inside the region must not hide a name they use.
  llvm::SmallVector<const Stmt *, 16> Region(regionOf(G).begin(),
                                             regionOf(G).end());
  llvm::SmallVector<const VarDecl *, 8> Declared;
  declaredIn(Region, Declared);
  if (Reason R = checkNamesKept(Sites, G, Declared); R != Reason::None)
    return R;

  RegionChecker Checker(Sites, std::move(Buffers), G.Function);
  for (size_t I : G.Sites)
    if (Sites[I].BufferField)
      Checker.addField(Sites[I].BufferField);
  for (const Stmt *S : regionOf(G))
    if (Reason R = Checker.check(S, S == G.First && siteCallIn(Sites, G, S));
        R != Reason::None)
      return R;
  return Reason::None;
}

/// The names the reduction evaluates again: each site's address and key
/// and the conditions between the site and the group's block.
static void
collectReevaluatedRefs(const AtomicSite &S, const CompoundStmt *Scope,
                       llvm::SmallVectorImpl<const DeclRefExpr *> &Out) {
  std::function<void(const Stmt *)> Collect = [&](const Stmt *E) {
    if (!E)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      Out.push_back(DRE);
    for (const Stmt *Child : E->children())
      Collect(Child);
  };
  Collect(S.Call->getArg(0));
  Collect(S.Key);
  for (const Stmt *A : S.Ancestors) {
    if (A == Scope)
      break;
    if (const auto *If = dyn_cast<IfStmt>(A))
      Collect(If->getCond());
  }
}

Reason checkNamesKept(const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                      llvm::ArrayRef<const VarDecl *> Declared) {
  if (Declared.empty())
    return Reason::None;
  for (size_t I : G.Sites) {
    llvm::SmallVector<const DeclRefExpr *, 16> Refs;
    collectReevaluatedRefs(Sites[I], G.Scope, Refs);
    for (const DeclRefExpr *Ref : Refs)
      for (const VarDecl *V : Declared)
        if (V != Ref->getDecl() &&
            V->getDeclName() == Ref->getDecl()->getDeclName())
          return Reason::NameShadowed;
  }
  return Reason::None;
}

void declaredIn(llvm::ArrayRef<const Stmt *> Stmts,
                llvm::SmallVectorImpl<const VarDecl *> &Out) {
  for (const Stmt *S : Stmts)
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Out.push_back(V);
}

Reason checkStatementsBetween(const std::vector<AtomicSite> &Sites,
                              const SiteGroup &G,
                              llvm::ArrayRef<const Stmt *> Stmts) {
  llvm::DenseSet<const VarDecl *> Buffers;
  for (size_t I : G.Sites)
    Buffers.insert(Sites[I].Buffer);
  RegionChecker Checker(Sites, std::move(Buffers), G.Function);
  for (const Stmt *S : Stmts)
    if (Reason R = Checker.check(S); R != Reason::None)
      return R;
  for (const Stmt *S : Stmts)
    if (firstLoopExit(S))
      return Reason::LeavesIteration;
  return Reason::None;
}

/// The batch's size is spelled with its channel loops' trip counts where
/// the batch is declared, at \p BatchAt: they may use no local declared
/// there or later (an invalid \p BatchAt: no local at all).
Reason tripCountsVisibleAt(ASTContext &Ctx,
                           const std::vector<AtomicSite> &Sites,
                           const SiteGroup &G, SourceLocation BatchAt) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I : G.Sites) {
    if (!Sites[I].Channel)
      continue;
    llvm::SmallVector<const VarDecl *, 4> BoundVars;
    collectVars(Sites[I].Channel->Upper, BoundVars);
    collectVars(Sites[I].Channel->Lower, BoundVars);
    for (const VarDecl *V : BoundVars)
      if (V->isLocalVarDecl() &&
          (BatchAt.isInvalid() ||
           !SM.isBeforeInTranslationUnit(V->getLocation(), BatchAt)))
        return Reason::NotVisibleAtBatch;
  }
  return Reason::None;
}

} // namespace distwar
