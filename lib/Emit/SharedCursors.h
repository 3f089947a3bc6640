//===- SharedCursors.h - pointers that walk __shared__ arrays ---*- C++ -*-===//
//
// In a loop that holds a batched group, every `A[j]` and `A[e + j]` (A a
// `__shared__` array declared before the loop, j the loop's bounded counter)
// is read through a cursor instead (GENERATED_CODE.md, section 7):
//
//   auto *distwar_cursor0 = A + c0;                       // before the loop
//   for (int j = c0; j < min(256, n); j++, ++distwar_cursor0)
//     ... distwar_cursor0[0] ... distwar_cursor0[e] ...
//
// Why: nvcc strength-reduces `A[j]` of the original loop into pointers that
// advance each iteration, but once the loop holds the reduction it stops
// doing so, and ptxas then rebuilds each array's shared-window address
// (S2UR SR_CgaCtaId + ULEA) at every use in every iteration. With explicit
// cursors the addresses leave the loop again, as in the original (measured
// on the 3DGS backward: bench/RESULTS.md, "pointer cursors").
//
// Only where the meaning is the same: j starts at a constant c0 >= 0, steps
// by one and is written nowhere in the loop; the loop condition bounds it so
// that A + j never passes one past A's end (A's extent is a constant larger
// than j's largest value and not below c0); e + j is a sum of signed integers
// (so it may be reassociated); and every token edited is in the file.
// Uses inside lambdas are left alone (a capture list may not name the cursor).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_SHAREDCURSORS_H
#define DISTWAR_EMIT_SHAREDCURSORS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/APSInt.h"
#include <optional>
#include <vector>

namespace distwar {

/// One access to rewrite: `A[j]` (Rest null) or `A[Rest + j]` / `A[j + Rest]`.
struct CursorUse {
  const clang::DeclRefExpr *Array = nullptr;   ///< the `A` token
  const clang::DeclRefExpr *Counter = nullptr; ///< the `j` token
  const clang::BinaryOperator *Sum = nullptr;  ///< `Rest + j`, or null
};

struct SharedCursor {
  const clang::VarDecl *Array = nullptr;
  std::vector<CursorUse> Uses; ///< source order
};

struct CursorPlan {
  llvm::APSInt Start;                ///< the counter's first value
  std::vector<SharedCursor> Cursors; ///< arrays in order of first use
};

/// The cursors \p Loop of \p Function can use, or none when it has none (see
/// the file comment for the conditions). An array whose extent depends on
/// template parameters qualifies when it does in every instantiation of
/// \p Function that the translation unit makes (at least one).
std::optional<CursorPlan> planSharedCursors(clang::ASTContext &Ctx,
                                            const clang::FunctionDecl *Function,
                                            const clang::ForStmt *Loop);

} // namespace distwar

#endif
