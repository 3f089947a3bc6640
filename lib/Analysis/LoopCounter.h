//===- LoopCounter.h - a loop counter with proven bounds --------*- C++ -*-===//
//
// `for (int j = c0; ... && j < B && ...; ++j)` with c0 a constant >= 0, j
// never written in the body or the condition, and B a constant (or the
// smallest constant argument of `min`): every iteration runs with
// c0 <= j <= B - 1. Speculation uses it to read `__shared__` arrays at j in
// lanes that skipped the iteration; shared-array cursors use it to walk a
// pointer along such an array without leaving it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_LOOPCOUNTER_H
#define DISTWAR_ANALYSIS_LOOPCOUNTER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/APSInt.h"
#include <optional>

namespace distwar {

struct BoundedCounter {
  const clang::VarDecl *Var = nullptr;
  llvm::APSInt Start; ///< its value in the first iteration
  llvm::APSInt Max;   ///< the largest value it takes in any iteration

  /// The first extent of \p Array when it is a constant, else none.
  static std::optional<llvm::APSInt> extent(const clang::VarDecl *Array,
                                            const clang::ASTContext &Ctx);

  /// Whether Array[Var] is in bounds in every iteration (Max < extent).
  bool indexesWithin(const clang::VarDecl *Array,
                     const clang::ASTContext &Ctx) const;
};

/// The bounded counter of \p Loop, or none (see the file comment).
std::optional<BoundedCounter> boundedCounter(clang::ASTContext &Ctx,
                                             const clang::Stmt *Loop);

} // namespace distwar

#endif
