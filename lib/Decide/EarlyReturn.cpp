//===- EarlyReturn.cpp - a return before the loop in the flag -------------===//

#include "Decide/EarlyReturn.h"
#include "Analysis/Collectives.h"
#include "Analysis/Purity.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

/// True when \p S lies inside \p Outer.
static bool isInside(const Stmt *S, const Stmt *Outer, UniformityAnalysis &U) {
  for (; S; S = U.parentOf(S))
    if (S == Outer)
      return true;
  return false;
}

static void collectReturns(const Stmt *S,
                    llvm::SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S)
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

/// `if (c) return;` at the top of the function before \p Loop (a pixel
/// outside the image): lanes that returned now run the loop with the flag
/// down. Provable only when what they now run in addition neither writes
/// nor reads memory (statements between the return and the loop, the
/// loop's init, condition and increment), no barrier lies in the loop
/// (they never executed one), nothing follows the loop, and every lane runs
/// the same iterations.
Reason planEarlyReturn(ASTContext &Ctx, const SiteGroup &G,
                       UniformityAnalysis &U, const Stmt *Loop,
                       FlagPlan &Plan) {
  const auto *FnBody = dyn_cast_or_null<CompoundStmt>(G.Function->getBody());
  if (!FnBody)
    return Reason::None;
  llvm::SmallVector<const ReturnStmt *, 4> Returns, Before;
  collectReturns(FnBody, Returns);
  for (const ReturnStmt *R : Returns)
    if (!isInside(R, Loop, U) &&
        Ctx.getSourceManager().isBeforeInTranslationUnit(R->getBeginLoc(),
                                                         Loop->getBeginLoc()))
      Before.push_back(R);
  if (Before.empty())
    return Reason::None;
  if (Before.size() != 1 || Before.front()->getRetValue() ||
      U.parentOf(Loop) != FnBody)
    return Reason::EarlyReturn;
  const Stmt *P = U.parentOf(Before.front());
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P); CS && CS->size() == 1)
    P = U.parentOf(CS);
  const auto *If = dyn_cast_or_null<IfStmt>(P);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      U.parentOf(If) != FnBody || !isInside(Before.front(), If->getThen(), U))
    return Reason::EarlyReturn;
  llvm::ArrayRef<Stmt *> Top(FnBody->body_begin(), FnBody->body_end());
  size_t IfAt = llvm::find(Top, If) - Top.begin();
  size_t LoopAt = llvm::find(Top, Loop) - Top.begin();
  if (IfAt >= LoopAt || LoopAt + 1 != Top.size())
    return Reason::EarlyReturn; // code after the loop would run too
  for (size_t I = IfAt + 1; I < LoopAt; ++I)
    if (writesSomething(Top[I]) || !readsNoMemory(Top[I]) ||
        mayBeCollective(Top[I]))
      return Reason::EarlyReturn;
  if (mayBeCollective(Loop) || !Plan.UniformTrips)
    return Reason::EarlyReturn;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    if (!readsNoMemory(For->getInit()) || !readsNoMemory(For->getInc()))
      return Reason::EarlyReturn;
    if (For->getInit() && !isa<DeclStmt>(For->getInit()))
      return Reason::EarlyReturn;
  } else if (!isa<WhileStmt>(Loop)) {
    return Reason::EarlyReturn;
  }
  for (const Expr *T : Plan.KeptTerms)
    if (!readsNoMemory(T) || writesSomething(T))
      return Reason::EarlyReturn;
  Plan.EarlyReturn = If;
  return Reason::None;
}

} // namespace distwar
