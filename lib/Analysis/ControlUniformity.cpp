//===- ControlUniformity.cpp - Statements every lane of a warp runs -------===//
//
// UniformityAnalysis's questions about control flow: whether the lanes that
// reach a statement's parent all reach the statement, through uniform
// branches and loops that keep their lanes together.
//
//===----------------------------------------------------------------------===//

#include "Analysis/LoopExits.h"
#include "Analysis/Uniformity.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace distwar {

bool UniformityAnalysis::controlIsUniform(const Stmt *S,
                                          const Stmt *ContinuesAllowedIn) {
  // A goto taken by some lanes can skip or repeat any statement: the
  // enclosing statements alone no longer say which lanes run \p S.
  if (HasGoto)
    return false;
  const Stmt *Child = S;
  for (const Stmt *P = parentOf(S); P; Child = P, P = parentOf(P))
    if (!runsAllLanes(P, Child, ContinuesAllowedIn))
      return false;
  return true;
}

/// Whether the lanes that run \p Top all run \p S, one of its statements:
/// every statement between them lets all its lanes through.
bool UniformityAnalysis::runsAllLanesUpTo(const Stmt *S, const Stmt *Top) {
  const Stmt *Child = S;
  for (const Stmt *P = parentOf(S); P && Child != Top;
       Child = P, P = parentOf(P))
    if (!runsAllLanes(P, Child, /*ContinuesAllowedIn=*/nullptr))
      return false;
  return Child == Top;
}

/// Whether the lanes that run \p P all run its child \p Child: a branch
/// taken on a uniform condition, or a loop that keeps its lanes together.
bool UniformityAnalysis::runsAllLanes(const Stmt *P, const Stmt *Child,
                                      const Stmt *ContinuesAllowedIn) {
  if (const auto *If = dyn_cast<IfStmt>(P))
    return (Child != If->getThen() && Child != If->getElse()) ||
           (!If->getInit() && !If->getConditionVariable() &&
            isUniform(If->getCond()));
  if (const auto *For = dyn_cast<ForStmt>(P))
    return !For->getConditionVariable() &&
           loopKeepsLanes(P, For->getCond(), For->getBody(), For->getInc(),
                          Child, ContinuesAllowedIn);
  if (const auto *While = dyn_cast<WhileStmt>(P))
    return !While->getConditionVariable() &&
           loopKeepsLanes(P, While->getCond(), While->getBody(), nullptr,
                          Child, ContinuesAllowedIn);
  if (const auto *Do = dyn_cast<DoStmt>(P))
    return loopKeepsLanes(P, Do->getCond(), Do->getBody(), nullptr, Child,
                          ContinuesAllowedIn);
  if (isa<CXXForRangeStmt, LambdaExpr>(P))
    return false;
  if (const auto *CO = dyn_cast<ConditionalOperator>(P))
    return Child == CO->getCond() || isUniform(CO->getCond());
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return !BO->isLogicalOp() || Child != BO->getRHS() ||
           isUniform(BO->getLHS());
  if (const auto *Sw = dyn_cast<SwitchStmt>(P))
    return Child != Sw->getBody() || isUniform(Sw->getCond());
  return true;
}

/// Whether every lane that enters loop \p Loop runs its body, condition and
/// increment as often as the others: conditions uniform (but for removed
/// conjuncts), no break or goto, a continue only in \p ContinuesAllowedIn.
bool UniformityAnalysis::loopKeepsLanes(const Stmt *Loop, const Expr *Cond,
                                        const Stmt *Body, const Stmt *Inc,
                                        const Stmt *Child,
                                        const Stmt *ContinuesAllowedIn) {
  if (Child != Body && Child != Inc && Child != Cond)
    return true; // the init runs once, before the loop
  if (Cond) {
    llvm::SmallVector<const Expr *, 4> Terms;
    flattenAnd(Cond, Terms);
    for (const Expr *T : Terms)
      if (!Removed.contains(T) && !isUniform(T))
        return false;
  }
  bool Break = false, Continue = false, Goto = false;
  forEachLoopExit(Body, [&](const LoopExit &E) {
    // A return only removes lanes: the others' values stay equal.
    Goto |= E.Kind == ExitKind::Goto;
    Break |= E.Kind == ExitKind::Break &&
             !(BlockLevel && runsAllLanesUpTo(E.S, Body));
    Continue |= E.Kind == ExitKind::Continue;
    return true;
  });
  if (Break || Goto)
    return false;
  return !Continue || Child != Body || Loop == ContinuesAllowedIn;
}

} // namespace distwar
