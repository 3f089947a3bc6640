//===- LoopExits.cpp - statements that end a loop iteration early ---------===//

#include "Analysis/LoopExits.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

static bool walkExits(const Stmt *S, bool InLoop, bool InSwitch,
                      llvm::function_ref<bool(const LoopExit &)> Visit) {
  if (!S)
    return true;
  // A lambda's return, break or goto leaves the lambda, not the loop; its
  // captures are still walked.
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const Expr *Init : L->capture_inits())
      if (!walkExits(Init, InLoop, InSwitch, Visit))
        return false;
    return true;
  }
  if (isa<ReturnStmt>(S))
    return Visit({S, ExitKind::Return, InSwitch});
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    return Visit({S, ExitKind::Goto, InSwitch});
  if (isa<BreakStmt>(S))
    return InLoop || InSwitch || Visit({S, ExitKind::Break, false});
  if (isa<ContinueStmt>(S))
    return InLoop || Visit({S, ExitKind::Continue, InSwitch});
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (!walkExits(Child, InLoop || Loop, InSwitch || Switch, Visit))
      return false;
  return true;
}

bool forEachLoopExit(const Stmt *S,
                     llvm::function_ref<bool(const LoopExit &)> Visit) {
  return walkExits(S, /*InLoop=*/false, /*InSwitch=*/false, Visit);
}

const Stmt *firstLoopExit(const Stmt *S,
                          llvm::ArrayRef<const ContinueStmt *> Except) {
  const Stmt *Found = nullptr;
  forEachLoopExit(S, [&](const LoopExit &E) {
    if (E.Kind == ExitKind::Continue && llvm::is_contained(Except, E.S))
      return true;
    Found = E.S;
    return false;
  });
  return Found;
}

bool containsGoto(const Stmt *S) {
  if (!S)
    return false;
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    return true;
  return llvm::any_of(S->children(), containsGoto);
}

} // namespace distwar
