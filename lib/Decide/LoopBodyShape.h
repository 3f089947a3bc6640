//===- LoopBodyShape.h - Where a group sits in a loop body ------*- C++ -*-===//
//
// The questions the active flag (Divergence.h) asks of the loop body that
// holds a group: which body statement holds the group's block, what runs
// after the group in that statement, and how an iteration may leave early.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_LOOPBODYSHAPE_H
#define DISTWAR_DECIDE_LOOPBODYSHAPE_H

#include "Analysis/Uniformity.h"
#include "Group/Grouping.h"
#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace distwar {

/// The statement of the loop body \p Body that holds the group's block
/// \p Scope: between them only blocks and branches of ifs (nested ifs, else
/// branches, else-if chains) may lie. The conditions stay where they are and
/// are evaluated once, as before; only the group's atomics move, to just
/// after the holder.
Reason holderOfScope(const clang::Stmt *Scope, const clang::Stmt *Body,
                     UniformityAnalysis &U, const clang::Stmt *&Holder);

/// The statements a lane that completes the group runs after it and before
/// the end of its holder: the rest of each enclosing block up to the loop
/// body (never the other branches of an if).
void statementsAfterGroup(const SiteGroup &G, const clang::Stmt *Body,
                          UniformityAnalysis &U,
                          llvm::SmallVectorImpl<const clang::Stmt *> &After);

/// What scanExits found: the reason to refuse, or the continues to convert.
struct ExitScan {
  Reason Why = Reason::None;
  std::vector<const clang::ContinueStmt *> Continues;
};

/// Exits of the iteration inside \p S: returns and gotos refuse; breaks of
/// this loop refuse; continues of this loop are collected.
void scanExits(const clang::Stmt *S, ExitScan &Out);

/// A continue that can become `live = false;`: between it and the body
/// statement \p Top lie only if-branches and blocks in which it (or the
/// statement holding it) comes last.
bool isConvertibleContinue(const clang::ContinueStmt *C,
                           const clang::Stmt *Top, UniformityAnalysis &U);

} // namespace distwar

#endif
