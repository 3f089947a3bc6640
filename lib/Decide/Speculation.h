//===- Speculation.h - statements safe to run in skipped lanes --*- C++ -*-===//
//
// Butterfly output guards every statement after a converted `continue` with
// the active flag, so the warp branches at each skip. Measured on the 3DGS
// backward (bench/RESULTS.md, attempt F): running the pure statements between
// the skips in every lane, under one warp-uniform branch, closes 5-11 more
// points of the gap to the no-atomic floor than nested per-lane guards. That
// is only allowed for statements whose extra executions nobody can observe
// and that cannot fault (docs/KERNELS.md, section 2: a skipped lane's inputs
// may be out of range). This decides which those are, conservatively.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_SPECULATION_H
#define DISTWAR_DECIDE_SPECULATION_H

#include "Analysis/LoopCounter.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

namespace distwar {

struct FlagPlan;

class SpeculationCheck {
public:
  /// \p Loop is the loop whose iteration holds the statements: its counter
  /// may index `__shared__` arrays when its condition bounds it below their
  /// size.
  SpeculationCheck(clang::ASTContext &Ctx, const clang::Stmt *Loop);

  /// True for a statement that may run in lanes that originally skipped it:
  /// a declaration of non-reference scalar or trivially copyable locals with
  /// speculatable initialisers, `if (c) continue;` with a speculatable `c`
  /// (it only lowers the active flag), or an empty statement.
  bool statement(const clang::Stmt *S) const;

  /// True for an expression that writes nothing, synchronises nothing and
  /// cannot fault: literals, locals and parameters read by value (not through
  /// references), arithmetic, comparisons, casts, `.` members, braced
  /// initialisers, known math functions (sqrtf, exp, min, ...), and
  /// `__shared__` array elements at the loop counter when it is proven in
  /// bounds. No pointer dereference, `->`, other call, or assignment.
  bool expression(const clang::Expr *E) const;

private:
  bool inBoundsSharedRead(const clang::ArraySubscriptExpr *ASE) const;

  clang::ASTContext &Ctx;
  /// The loop counter and its bounds, if proven.
  std::optional<BoundedCounter> Counter;
};

/// Where statements between guard points may run unguarded
/// (FlagPlan::AnyFromStart...Unguarded). A guard point's stretch is the
/// statements after it up to and including the next converted continue's
/// statement; the stretch that reaches the holder \p H never qualifies.
/// Per-lane guards closed before the warp-uniform branch must not hold
/// declarations used after them.
void planSpeculation(clang::ASTContext &Ctx, const clang::Stmt *Loop,
                     llvm::ArrayRef<clang::Stmt *> Stmts,
                     llvm::ArrayRef<size_t> ContinueHolders, size_t H,
                     size_t GuardBegin, FlagPlan &Plan);

} // namespace distwar

#endif
