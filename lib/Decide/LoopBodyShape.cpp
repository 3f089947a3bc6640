//===- LoopBodyShape.cpp - Where a group sits in a loop body --------------===//

#include "Decide/LoopBodyShape.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"

using namespace clang;

namespace distwar {

Reason holderOfScope(const Stmt *Scope, const Stmt *Body, UniformityAnalysis &U,
                     const Stmt *&Holder) {
  const Stmt *Child = Scope;
  for (const Stmt *P = U.parentOf(Scope); P; Child = P, P = U.parentOf(P)) {
    if (P == Body) {
      Holder = Child;
      return Reason::None;
    }
    if (isa<CompoundStmt>(P))
      continue;
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || (Child != If->getThen() && Child != If->getElse()))
      return Reason::NotInLoop;
    if (If->getInit() || If->getConditionVariable() || If->isConstexpr() ||
        If->isConsteval())
      return Reason::IfForm;
    if (hasSideEffects(If->getCond()))
      return Reason::ConditionSideEffects;
  }
  return Reason::NotInLoop;
}

void statementsAfterGroup(const SiteGroup &G, const Stmt *Body,
                          UniformityAnalysis &U,
                          llvm::SmallVectorImpl<const Stmt *> &After) {
  const Stmt *Child = G.Last;
  for (const Stmt *P = G.Scope; P && P != Body; Child = P, P = U.parentOf(P)) {
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      continue;
    bool Seen = false;
    for (const Stmt *S : Block->body()) {
      if (Seen)
        After.push_back(S);
      Seen = Seen || S == Child;
    }
  }
}

void scanExits(const Stmt *S, ExitScan &Out) {
  forEachLoopExit(S, [&](const LoopExit &E) {
    switch (E.Kind) {
    case ExitKind::Return:
      Out.Why = Reason::ReturnInLoop;
      break;
    case ExitKind::Goto:
    case ExitKind::Break:
      Out.Why = Reason::BreakOrGoto;
      break;
    case ExitKind::Continue:
      if (E.InSwitch)
        Out.Why = Reason::UnconvertibleContinue;
      else
        Out.Continues.push_back(cast<ContinueStmt>(E.S));
      break;
    }
    return Out.Why == Reason::None;
  });
}

bool isConvertibleContinue(const ContinueStmt *C, const Stmt *Top,
                           UniformityAnalysis &U) {
  const Stmt *Child = C;
  for (const Stmt *P = U.parentOf(C); P; Child = P, P = U.parentOf(P)) {
    if (Child == Top)
      return true;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getThen() && Child != If->getElse())
        return false;
      continue;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      if (CS->body_empty() || CS->body_back() != Child)
        return false;
      continue;
    }
    return false;
  }
  return false;
}

} // namespace distwar
