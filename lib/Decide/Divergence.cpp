//===- Divergence.cpp - lane divergence turned into an active flag --------===//

#include "Decide/Divergence.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Collectives.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "Decide/EarlyReturn.h"
#include "Decide/GroupSafety.h"
#include "Decide/Hoisting.h"
#include "Decide/LoopBodyShape.h"
#include "Decide/Speculation.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

namespace {

/// The batch's key type as the batch declaration spells it.
std::string keyTypeText(const AtomicSite &First, ASTContext &Ctx) {
  QualType KT = First.Key->getType();
  return KT->isDependentType()
             ? "long long"
             : KT.getCanonicalType().getUnqualifiedType().getAsString(
                   Ctx.getPrintingPolicy());
}

/// The captured key's initialiser: an enumeration takes no `0`.
std::string keyInitText(const AtomicSite &First) {
  return First.Key->getType()->isEnumeralType() ? "{}" : " = 0";
}

/// planActiveFlag's steps on the loop body that holds one group, in order:
/// each step either fills its part of the plan or gives the reason the
/// lanes that skip the group cannot be turned into an active flag.
class FlagPlanner {
public:
  FlagPlanner(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
              const SiteGroup &G, UniformityAnalysis &U, FlagPlan &Plan)
      : Ctx(Ctx), Sites(Sites), G(G), U(U), Plan(Plan),
        First(Sites[G.Sites.front()]) {}

  Reason run(llvm::ArrayRef<const SiteGroup *> Segments,
             llvm::ArrayRef<const SiteGroup *> Others) {
    Loop = iterationOf(First);
    if (Loop && G.Function && Loop == G.Function->getBody() && G.Scope == Loop)
      return planStraightLine();
    if (Reason R = findBody(); R != Reason::None)
      return R;
    if (Reason R = placeSegments(Segments); R != Reason::None)
      return R;
    if (Reason R = convertContinues(); R != Reason::None)
      return R;
    if (Reason R = keepOthersWhole(Others); R != Reason::None)
      return R;
    if (Reason R = planLoopTerms(); R != Reason::None)
      return R;
    planTrips();
    if (Reason R = planGuards(); R != Reason::None)
      return R;
    if (Reason R = checkMovedPast(); R != Reason::None)
      return R;
    if (Reason R = planHoisting(); R != Reason::None)
      return R;
    Plan.KeyType = keyTypeText(First, Ctx);
    Plan.KeyInit = keyInitText(First);
    return Reason::None;
  }

private:
  /// Straight-line code of the function body: every lane that runs the
  /// function reaches the reduction (lanes that returned are absent, which
  /// the runtime tolerates). No flag.
  Reason planStraightLine() {
    Plan.Body = G.Scope;
    Plan.Holder = G.Last;
    Plan.UniformTrips = true;
    Plan.KeyType = keyTypeText(First, Ctx);
    Plan.KeyInit = keyInitText(First);
    return tripCountsVisibleAt(Ctx, Sites, G, SourceLocation());
  }

  /// The loop's body and condition.
  Reason findBody() {
    const Stmt *BodyStmt = nullptr;
    if (const auto *For = dyn_cast_or_null<ForStmt>(Loop)) {
      if (For->getConditionVariable())
        return Reason::NotInLoop;
      BodyStmt = For->getBody();
      Plan.Cond = For->getCond();
    } else if (const auto *While = dyn_cast_or_null<WhileStmt>(Loop)) {
      if (While->getConditionVariable())
        return Reason::NotInLoop;
      BodyStmt = While->getBody();
      Plan.Cond = While->getCond();
    } else if (const auto *Do = dyn_cast_or_null<DoStmt>(Loop)) {
      BodyStmt = Do->getBody();
    }
    if (!BodyStmt)
      return Reason::NotInLoop;
    Body = BodyStmt;
    // A body without braces is a scope only for a group it holds whole
    // (SiteGroup::Scope): the braces the rewrite adds come with that group.
    if (!isa<CompoundStmt>(BodyStmt)) {
      if (G.Scope != Loop)
        return Reason::NotInLoop;
      Body = Loop;
    }
    Plan.Loop = Loop;
    Plan.Body = Body;
    Stmts = scopeStatements(Body);
    return Reason::None;
  }

  size_t indexOf(const Stmt *S) const {
    return size_t(llvm::find(Stmts, S) - Stmts.begin());
  }

  /// Where each group of the iteration sits in the body: directly, or in
  /// the block of an if that is a body statement.
  Reason placeSegments(llvm::ArrayRef<const SiteGroup *> Segments) {
    std::vector<const SiteGroup *> Segs(Segments.begin(), Segments.end());
    if (Segs.empty())
      Segs.push_back(&G);
    for (const SiteGroup *SG : Segs) {
      const Stmt *Holder = SG->Last;
      bool UnderIf = false;
      if (SG->Scope != Body) {
        if (Reason R = holderOfScope(SG->Scope, Body, U, Holder);
            R != Reason::None)
          return R;
        UnderIf = true;
      }
      size_t Index = indexOf(Holder);
      size_t FirstIndex = UnderIf ? Index : indexOf(SG->First);
      if (Index == Stmts.size())
        return Reason::NotInLoop;
      if (!Holders.empty() && FirstIndex <= Holders.back())
        return Reason::SeveralGroupsInIteration; // regions interleave
      if (SG == &G) {
        Plan.Segment = Holders.size();
        Plan.Holder = Holder;
        Plan.GroupUnderIf = UnderIf;
        if (!Holders.empty())
          Plan.PrevHolder = Stmts[Holders.back()];
      }
      Holders.push_back(Index);
    }
    if (!Plan.Holder)
      return Reason::NotInLoop;
    Plan.Segments = Holders.size();
    H = Holders[Plan.Segment];
    HLast = Holders.back();
    return Reason::None;
  }

  /// The body statement that holds \p C.
  size_t bodyStatementOf(const ContinueStmt *C) {
    for (size_t K = 0; K < Stmts.size(); ++K)
      for (const Stmt *P = C; P; P = U.parentOf(P))
        if (P == Stmts[K])
          return K;
    return Stmts.size();
  }

  /// Exits of the iteration: continues before the last reduction become
  /// the flag; any other exit refuses.
  Reason convertContinues() {
    ExitScan Exits;
    for (const Stmt *S : Stmts)
      if (Exits.Why == Reason::None)
        scanExits(S, Exits);
    if (Exits.Why != Reason::None)
      return Exits.Why;
    for (const ContinueStmt *C : Exits.Continues) {
      size_t K = bodyStatementOf(C);
      if (K > HLast)
        continue; // after the reductions: stays a continue under the guard
      if (llvm::is_contained(Holders, K) ||
          !isConvertibleContinue(C, Stmts[K], U))
        return Reason::UnconvertibleContinue;
      Plan.Continues.push_back(C);
      if (ContinueHolders.empty() || ContinueHolders.back() != K)
        ContinueHolders.push_back(K);
    }
    return Reason::None;
  }

  /// The other batched groups of the iteration keep their batch and serial
  /// reduction in one block: no guard may open or close inside their region.
  Reason keepOthersWhole(llvm::ArrayRef<const SiteGroup *> Others) {
    auto BodyIndex = [&](const Stmt *S) {
      while (S && U.parentOf(S) != Body)
        S = U.parentOf(S);
      return S ? indexOf(S) : Stmts.size();
    };
    for (const SiteGroup *O : Others) {
      size_t A = BodyIndex(O->First), B = BodyIndex(O->Last);
      if (A == Stmts.size() || B == Stmts.size())
        return Reason::SeveralGroupsInIteration;
      for (size_t P : ContinueHolders)
        if (A <= P && P < B)
          return Reason::SeveralGroupsInIteration;
      // Nor at its end: the guards closed after a holder that is the other
      // group's last statement would close before that group's reduction
      // (a group nested inside the holder reduces inside it).
      for (size_t P : Holders)
        if (A <= P && (P < B || (P == B && Stmts[P] == O->Last)))
          return Reason::SeveralGroupsInIteration;
    }
    return Reason::None;
  }

  /// Whether loop-condition term \p T has the same value in every
  /// iteration of the loop (so a lane's flag can hold it).
  bool isLoopInvariant(const Expr *T) {
    if (writesSomething(T) || !readsNoMemory(T))
      return false;
    llvm::SmallVector<const VarDecl *, 4> Vars;
    collectVars(T, Vars);
    return llvm::none_of(Vars, [&](const VarDecl *V) {
      return findWrite(Loop, V, /*Through=*/true) != nullptr;
    });
  }

  /// Lane-dependent loop-condition terms that never change in the loop
  /// move into the flag.
  Reason planLoopTerms() {
    if (!Plan.Cond)
      return Reason::None;
    llvm::SmallVector<const Expr *, 4> Terms;
    flattenAnd(Plan.Cond, Terms);
    bool AfterRemoved = false;
    for (const Expr *T : Terms) {
      if (AfterRemoved && (!readsNoMemory(T) || writesSomething(T)))
        return Reason::LoopTermNotConvertible;
      // A uniform term, or one that changes (lanes may then run different
      // iterations), stays in the condition.
      if (U.isUniform(T) || !isLoopInvariant(T)) {
        Plan.KeptTerms.push_back(T);
        continue;
      }
      Plan.RemovedTerms.push_back(T);
      AfterRemoved = true;
    }
    if (Plan.RemovedTerms.empty())
      return Reason::None;
    if (Plan.KeptTerms.empty())
      return Reason::LoopTermNotConvertible;
    if (Reason R = checkIncrement(); R != Reason::None)
      return R;
    for (const Expr *T : Plan.RemovedTerms)
      U.assumeRemoved(T);
    return Reason::None;
  }

  /// Lanes whose removed term is false now run the loop's increment too:
  /// it may change only the loop's own counters and read no memory.
  Reason checkIncrement() {
    const auto *For = dyn_cast<ForStmt>(Loop);
    if (!For)
      return Reason::None;
    llvm::SmallVector<const VarDecl *, 4> IncVars;
    collectVars(For->getInc(), IncVars);
    const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
    for (const VarDecl *V : IncVars) {
      bool Scoped = Init && llvm::is_contained(Init->decls(), V);
      if (!Scoped && findWrite(For->getInc(), V, /*Through=*/true))
        return Reason::LoopTermNotConvertible;
    }
    return readsNoMemory(For->getInc()) ? Reason::None
                                        : Reason::LoopTermNotConvertible;
  }

  /// Whether every lane of the warp runs the same iterations of this loop,
  /// and an early return before it.
  void planTrips() {
    Plan.UniformTrips = U.controlIsUniform(Loop);
    for (const Expr *T : Plan.KeptTerms)
      Plan.UniformTrips = Plan.UniformTrips && U.isUniform(T);
    if (!Plan.UniformTrips)
      Plan.TripReason = Reason::TripCountVaries;
    // An early return before the loop becomes the flag's first term where
    // provable. Where not, lanes that returned are simply absent at the
    // call: the runtime reduces only warps whose 32 lanes are all present
    // and sends the others as plain atomics, so the butterfly stays correct
    // and only edge warps lose the reduction (reported as a note).
    Plan.EarlyReturnNote = planEarlyReturn(Ctx, G, U, Loop, Plan);
  }

  /// The live flag's initial value: the early return and the removed terms.
  Reason planLiveInit() {
    if (Plan.EarlyReturn)
      Init = "(!distwar_returned)";
    for (const Expr *T : Plan.RemovedTerms) {
      std::string Text = sourceText(T, Ctx);
      if (Text.empty())
        return Reason::MacroExpansion;
      Init += (Init.empty() ? "(" : " && (") + Text + ")";
    }
    if (Init.empty() && !Plan.Continues.empty())
      Init = "true";
    Plan.LiveInit = Init;
    return Reason::None;
  }

  /// The live flag and the guards: where they begin, how many are open at
  /// this group's holder, and that nothing they guard synchronises lanes.
  Reason planGuards() {
    if (Reason R = planLiveInit(); R != Reason::None)
      return R;
    Plan.GuardFromStart = !Plan.RemovedTerms.empty() || Plan.EarlyReturn;
    for (size_t K : ContinueHolders)
      Plan.GuardAfter.push_back(Stmts[K]);
    GuardBegin = Stmts.size();
    if (Plan.GuardFromStart)
      GuardBegin = 0;
    else if (!ContinueHolders.empty())
      GuardBegin = ContinueHolders.front() + 1;
    if (!Init.empty() && Holders.size() > 1)
      GuardBegin = std::min(GuardBegin, Holders.front() + 1);
    Plan.GuardTrailing = !Init.empty() && HLast + 1 < Stmts.size();
    // Guards open at this group's holder: from the body's start (or from
    // the previous group's reduction) and after each converted continue
    // since.
    size_t From = 0;
    if (Plan.Segment == 0) {
      Plan.GuardsOpen = Plan.GuardFromStart;
    } else {
      From = Holders[Plan.Segment - 1] + 1;
      Plan.GuardsOpen = !Init.empty();
    }
    for (size_t K : ContinueHolders)
      Plan.GuardsOpen += K >= From && K < H;
    if (Plan.Segments == 1 && !Plan.GroupUnderIf && !Init.empty())
      planSpeculation(Ctx, Loop, Stmts, ContinueHolders, H, GuardBegin, Plan);
    for (size_t I = GuardBegin; I < Stmts.size(); ++I) {
      if (I > HLast && !Plan.GuardTrailing)
        break;
      if (mayBeCollective(Stmts[I]))
        return Reason::CollectiveInRegion;
    }
    return Reason::None;
  }

  /// What now runs before the reduction: the batch (and its trip counts)
  /// is declared at the body's start, and for a group under ifs the
  /// statements after it up to the end of its holder.
  Reason checkMovedPast() {
    // The batch is declared before the body's first statement (inside the
    // braces the rewrite adds to a body without them).
    assert(!Stmts.empty() && "the body holds the group");
    if (Reason R =
            tripCountsVisibleAt(Ctx, Sites, G, Stmts.front()->getBeginLoc());
        R != Reason::None)
      return R;
    if (!Plan.GroupUnderIf)
      return Reason::None;
    llvm::SmallVector<const Stmt *, 8> After;
    statementsAfterGroup(G, Body, U, After);
    return checkStatementsBetween(Sites, G, After);
  }

  /// Whether a statement after the reduction that closes the guard of
  /// body statement \p I uses what \p DS declares.
  bool usedAfterItsGuard(const DeclStmt *DS, size_t I) {
    size_t Closing = *llvm::lower_bound(Holders, I);
    llvm::DenseSet<const VarDecl *> Declared;
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Declared.insert(V);
    for (size_t J = Closing + 1; J < Stmts.size(); ++J)
      if (refersToAny(Stmts[J], Declared))
        return true;
    return false;
  }

  /// Declarations that statements after their guard's reduction use are
  /// hoisted out of the guard; and the names the reduction reads stay
  /// visible where it is placed.
  Reason planHoisting() {
    if (!Init.empty()) {
      for (size_t I = GuardBegin; I <= HLast; ++I) {
        const auto *DS = dyn_cast<DeclStmt>(Stmts[I]);
        if (!DS || !usedAfterItsGuard(DS, I))
          continue;
        if (DS->getBeginLoc().isMacroID())
          return Reason::MacroExpansion;
        if (hoistableWhole(DS, Ctx)) {
          Plan.HoistedWhole.push_back(DS);
          continue;
        }
        for (const Decl *D : DS->decls()) {
          const auto *V = dyn_cast<VarDecl>(D);
          if (!V || !hoistable(V))
            return Reason::HoistImpossible;
        }
        Plan.Hoisted.push_back(DS);
      }
    }
    if (Reason R = checkHoistedNames(Stmts, Plan.Hoisted); R != Reason::None)
      return R;
    if (Reason R = checkHoistedNames(Stmts, Plan.HoistedWhole);
        R != Reason::None)
      return R;
    // The reduction sits after the holder, at the body's top level: the
    // body's declarations up to there are visible to it.
    llvm::SmallVector<const VarDecl *, 16> Visible;
    declaredIn(llvm::SmallVector<const Stmt *, 32>(Stmts.begin(),
                                                   Stmts.begin() + H + 1),
               Visible);
    return checkNamesKept(Sites, G, Visible);
  }

  ASTContext &Ctx;
  const std::vector<AtomicSite> &Sites;
  const SiteGroup &G;
  UniformityAnalysis &U;
  FlagPlan &Plan;
  const AtomicSite &First;
  const Stmt *Loop = nullptr;
  const Stmt *Body = nullptr;          ///< the loop body's scope
  llvm::ArrayRef<Stmt *> Stmts;        ///< the loop body's statements
  std::vector<size_t> Holders;         ///< body index of each segment's holder
  std::vector<size_t> ContinueHolders; ///< body index of converted continues
  size_t H = 0, HLast = 0;             ///< this group's holder, the last one
  size_t GuardBegin = 0;               ///< first guarded body statement
  std::string Init;                    ///< the live flag's initial value
};

} // namespace

Reason planActiveFlag(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                      const SiteGroup &G, UniformityAnalysis &U, FlagPlan &Plan,
                      llvm::ArrayRef<const SiteGroup *> Segments,
                      llvm::ArrayRef<const SiteGroup *> Others) {
  assert(!G.Sites.empty() && "a group has sites");
  return FlagPlanner(Ctx, Sites, G, U, Plan).run(Segments, Others);
}

} // namespace distwar
