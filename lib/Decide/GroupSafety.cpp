//===- GroupSafety.cpp - may a group's atomics be deferred? ---------------===//

#include "Decide/GroupSafety.h"
#include "Analysis/AstQueries.h"
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
  llvm::ArrayRef<Stmt *> Body = scopeStatements(G.Scope);
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
/// channel loop, ifs on grid-uniform conditions or on the key alone
/// (conditional fields: the slot keeps a null address when the field is not
/// written, the same in every lane of one key) and the group's
/// lane-dependent ifs (LaneSet fields) may lie; anything else makes the site
/// conditional. Returns that statement, or null when the site is not
/// conditional.
static const Stmt *conditionOver(const AtomicSite &S, const SiteGroup &G,
                                 UniformityAnalysis &U) {
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    const Stmt *Below = Child;
    Child = A;
    if (A == G.Scope)
      return nullptr;
    if (isLaneIfAbove(A, Below, G))
      continue;
    if (isa<CompoundStmt, ExprWithCleanups, ParenExpr, CStyleCastExpr>(A) ||
        isInvocationWrapper(S, A))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(A);
        If && Below != If->getCond() && !If->getInit() &&
        !If->getConditionVariable() &&
        (U.isGridUniform(If->getCond()) ||
         U.isFunctionOfKey(If->getCond(), S.Key)))
      continue;
    if (S.Channel && A == S.Channel->Loop)
      continue;
    if (const auto *AS = dyn_cast<AttributedStmt>(A);
        AS && S.Channel && AS->getSubStmt() == S.Channel->Loop)
      continue;
    return A;
  }
  return S.Call;
}

/// The note at an exit \p Exit that leaves the group's iteration.
static llvm::StringRef exitText(const Stmt *Exit) {
  if (isa<BreakStmt>(Exit))
    return "this 'break' leaves the iteration";
  if (isa<ContinueStmt>(Exit))
    return "this 'continue' leaves the iteration";
  if (isa<ReturnStmt>(Exit))
    return "this 'return' leaves the iteration";
  return "this 'goto' leaves the iteration";
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

/// Whether \p E reads \p V only through members of arithmetic type (`p.n`
/// in `idx * p.n + ch`): what \p V's pointers point to is not read.
static bool readsOnlyScalarMembers(const Expr *E, const VarDecl *V) {
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && !ME->isArrow() && ME->getType()->isArithmeticType()) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    while (isa<MemberExpr>(Base) && !cast<MemberExpr>(Base)->isArrow())
      Base = cast<MemberExpr>(Base)->getBase()->IgnoreParenImpCasts();
    if (refersTo(Base, V))
      return true;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl() != V;
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child);
        ChildExpr && !readsOnlyScalarMembers(ChildExpr, V))
      return false;
  return true;
}

/// Where region statement \p S may change key variable \p V, or null. A
/// key that is the buffer pointer changes only with the pointer's own
/// storage (the group's atomics store through it), as does one that reads
/// only arithmetic members of a struct variable (`p.n`; the atomics store
/// through `p.buf`). The group's own atomic calls take their address by
/// value: only their arguments are looked at (in a template, a call not
/// yet resolved might otherwise take \p V by reference).
static const Stmt *keyVariableWrite(const std::vector<AtomicSite> &Sites,
                                    const SiteGroup &G, const Stmt *S,
                                    const VarDecl *V) {
  const AtomicSite &First = Sites[G.Sites.front()];
  // An array's address (a __shared__ buffer as the key) never changes.
  if (First.KeyIsBuffer && V->getType()->isArrayType())
    return nullptr;
  const bool StorageOnly =
      First.KeyIsBuffer || (V->getType()->isRecordType() &&
                            readsOnlyScalarMembers(First.Key, V));
  auto Write = [&](const Stmt *X) {
    return StorageOnly ? findStorageWrite(X, V)
                       : findWrite(X, V, /*Through=*/true);
  };
  if (const CallExpr *Call = siteCallIn(Sites, G, S)) {
    for (const Expr *Arg : Call->arguments())
      if (const Stmt *W = Write(Arg))
        return W;
    return nullptr;
  }
  return Write(S);
}

const ChannelLoop *versionedLoopOf(const std::vector<AtomicSite> &Sites,
                                   const SiteGroup &G) {
  for (size_t I : G.Sites)
    if (Sites[I].Channel && Sites[I].Channel->runTimeTrip())
      return &*Sites[I].Channel;
  return nullptr;
}

/// A group in a versioned loop runs inside one version: its region is the
/// loop and nothing else, and all its sites are in it, written in the file
/// (the run-time test repeats each address's text).
static Verdict checkVersionedSpan(const std::vector<AtomicSite> &Sites,
                                  const SiteGroup &G, const ChannelLoop &CL) {
  const SourceManager &SM = G.Function->getASTContext().getSourceManager();
  auto Refuse = [&](const Stmt *At, llvm::StringRef Text) {
    return Verdict(Reason::VersionedLoop, placeAt(SM, At->getBeginLoc(), Text));
  };
  if (G.First != CL.Loop || G.Last != CL.Loop)
    return Refuse(G.First != CL.Loop ? G.First : G.Last,
                  "this statement of the group is outside the loop");
  for (size_t I : G.Sites) {
    const AtomicSite &S = Sites[I];
    if (!S.Channel || S.Channel->Loop != CL.Loop)
      return Refuse(S.Call, "this atomic of the group is outside the loop");
    // A run's base, its key, is spelled from the macro's expanded tokens
    // (which every site of the group needs: the run-time test names them).
    const Expr *Addr = S.Call->getArg(0);
    if ((S.Invocation || Addr->getBeginLoc().isMacroID() ||
         Addr->getEndLoc().isMacroID()) &&
        !(S.KeyIsRunBase && !S.KeyText.empty()))
      return Refuse(S.Call, "this atomic is written in a macro");
  }
  return Reason::None;
}

/// What deferring \p G's atomics to the region's end crosses
/// (RegionChecker); in a versioned loop, the reads left to the run-time
/// test go to \p Reads.
static Verdict checkRegion(const std::vector<AtomicSite> &Sites,
                           const SiteGroup &G,
                           llvm::DenseSet<const VarDecl *> Buffers,
                           llvm::SmallVectorImpl<const Expr *> &Reads) {
  RegionChecker Checker(Sites, std::move(Buffers), G.Function);
  for (size_t I : G.Sites)
    if (Sites[I].BufferField)
      Checker.addField(Sites[I].BufferField);
  if (const ChannelLoop *CL = versionedLoopOf(Sites, G)) {
    if (Verdict Why = checkVersionedSpan(Sites, G, *CL); Why != Reason::None)
      return Why;
    Checker.allowChannelReads(CL->Loop, &Reads);
  }
  for (const Stmt *S : regionOf(G))
    if (Verdict Why = Checker.check(S, S == G.First && siteCallIn(Sites, G, S));
        Why != Reason::None)
      return Why;
  return Reason::None;
}

Verdict checkGroupSafety(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                         const SiteGroup &G,
                         llvm::ArrayRef<const ContinueStmt *> Converted) {
  if (G.Why != Reason::None)
    return G.Why;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<const VarDecl *> Buffers;
  UniformityAnalysis U(Ctx, G.Function);
  for (size_t I : G.Sites) {
    if (const Stmt *Over = conditionOver(Sites[I], G, U))
      return Verdict(Reason::ConditionalSite,
                     placeAt(SM, Over->getBeginLoc(),
                             Over == Sites[I].Call
                                 ? "this atomic is not in the group's block"
                                 : "an atomic of the group is conditional "
                                   "on this statement"));
    Buffers.insert(Sites[I].Buffer);
  }
  if (const Stmt *Exit = findIterationExit(G, Converted))
    return Verdict(Reason::LeavesIteration,
                   placeAt(SM, Exit->getBeginLoc(), exitText(Exit)));
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
  SourceLocation RegionBegin = G.First->getBeginLoc();
  const AtomicSite &FirstSite = Sites[G.Sites.front()];
  llvm::SmallVector<const VarDecl *, 4> KeyVars;
  collectVars(FirstSite.Key, KeyVars);
  // A run's base is read with the loop variable at its first value.
  if (FirstSite.KeyIsRunBase)
    llvm::erase(KeyVars, FirstSite.Channel->Var);
  for (const VarDecl *V : KeyVars) {
    if (V->isLocalVarDecl() &&
        !SM.isBeforeInTranslationUnit(V->getLocation(), RegionBegin))
      return Verdict(Reason::NotVisibleAtBatch,
                     placeAt(SM, V->getLocation(),
                             ("the key's variable '" + V->getName() +
                              "' is declared here, inside the group")
                                 .str()));
    for (const Stmt *S : regionOf(G))
      if (const Stmt *W = keyVariableWrite(Sites, G, S, V))
        return Verdict(Reason::KeyModified,
                       placeAt(SM, W->getBeginLoc(),
                               ("the key's variable '" + V->getName() +
                                "' is written here")
                                   .str()));
  }
  // Trip counts are spelled in the batch declaration, before the region.
  if (Verdict Why = tripCountsVisibleAt(Ctx, Sites, G, RegionBegin);
      Why != Reason::None)
    return Why;

  // The reduction after the region evaluates the addresses and the key
  // again: a declaration inside the region must not hide a name they use.
  llvm::SmallVector<const Stmt *, 16> Region(regionOf(G).begin(),
                                             regionOf(G).end());
  llvm::SmallVector<const VarDecl *, 8> Declared;
  declaredIn(Region, Declared);
  if (Verdict Why = checkNamesKept(Sites, G, Declared); Why != Reason::None)
    return Why;

  llvm::SmallVector<const Expr *, 8> Reads;
  return checkRegion(Sites, G, std::move(Buffers), Reads);
}

std::vector<const Expr *>
versionedLoopReads(const std::vector<AtomicSite> &Sites, const SiteGroup &G) {
  llvm::DenseSet<const VarDecl *> Buffers;
  for (size_t I : G.Sites)
    Buffers.insert(Sites[I].Buffer);
  llvm::SmallVector<const Expr *, 8> Reads;
  [[maybe_unused]] Verdict Why =
      checkRegion(Sites, G, std::move(Buffers), Reads);
  assert(Why == Reason::None && "only a safe group is planned");
  return {Reads.begin(), Reads.end()};
}

/// The names the reduction evaluates again: each site's address and key
/// and the conditions between the site and the group's block.
static void
collectReevaluatedRefs(const AtomicSite &S, const Stmt *Scope,
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

Verdict checkNamesKept(const std::vector<AtomicSite> &Sites, const SiteGroup &G,
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
          return Verdict(
              Reason::NameShadowed,
              placeAt(V->getASTContext().getSourceManager(), V->getLocation(),
                      ("this declaration hides the '" + V->getName() +
                       "' that the rewritten code uses")
                          .str()));
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

Verdict checkStatementsBetween(const std::vector<AtomicSite> &Sites,
                               const SiteGroup &G,
                               llvm::ArrayRef<const Stmt *> Stmts) {
  llvm::DenseSet<const VarDecl *> Buffers;
  for (size_t I : G.Sites)
    Buffers.insert(Sites[I].Buffer);
  RegionChecker Checker(Sites, std::move(Buffers), G.Function);
  for (const Stmt *S : Stmts)
    if (Verdict Why = Checker.check(S); Why != Reason::None)
      return Why;
  for (const Stmt *S : Stmts)
    if (const Stmt *Exit = firstLoopExit(S))
      return Verdict(Reason::LeavesIteration,
                     placeAt(G.Function->getASTContext().getSourceManager(),
                             Exit->getBeginLoc(), exitText(Exit)));
  return Reason::None;
}

/// The batch's size is spelled with its channel loops' trip counts where
/// the batch is declared, at \p BatchAt: they may use no local declared
/// there or later (an invalid \p BatchAt: no local at all).
Verdict tripCountsVisibleAt(ASTContext &Ctx,
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
        return Verdict(Reason::NotVisibleAtBatch,
                       placeAt(SM, V->getLocation(),
                               ("the trip count's variable '" + V->getName() +
                                "' is declared here, after the batch's place")
                                   .str()));
  }
  return Reason::None;
}

} // namespace distwar
