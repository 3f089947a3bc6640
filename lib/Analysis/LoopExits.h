//===- LoopExits.h - statements that end a loop iteration early -*- C++ -*-===//
//
// Batching moves atomics to the end of a group, the butterfly needs every
// lane at its reduction, a channel loop is unrolled whole: each asks which
// statements of a loop body leave the iteration before its end. This is the
// one walk that answers, so that every stage counts the same exits (a
// `continue` inside a `switch` continues the loop; a `break` there does not
// leave it).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_LOOPEXITS_H
#define DISTWAR_ANALYSIS_LOOPEXITS_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace distwar {

enum class ExitKind { Return, Goto, Break, Continue };

/// A statement that leaves the iteration of the loop whose body holds it.
struct LoopExit {
  const clang::Stmt *S = nullptr;
  ExitKind Kind = ExitKind::Return;
  /// Inside a `switch` of the body (for a continue: it cannot be replaced by
  /// a flag and the end of the switch).
  bool InSwitch = false;
};

/// Calls \p Visit, in source order, for each exit in \p S, a statement of a
/// loop body: returns and gotos anywhere, breaks and continues of that loop
/// (not those of loops nested in \p S, nor a switch's breaks). Stops when
/// \p Visit returns false; returns false when it stopped.
bool forEachLoopExit(const clang::Stmt *S,
                     llvm::function_ref<bool(const LoopExit &)> Visit);

/// The first exit in \p S other than the continues of \p Except, or null.
const clang::Stmt *
firstLoopExit(const clang::Stmt *S,
              llvm::ArrayRef<const clang::ContinueStmt *> Except = {});

/// Whether \p S holds a goto: lanes that take it may skip or repeat any
/// statement, so no structure of \p S says which lanes run what.
bool containsGoto(const clang::Stmt *S);

} // namespace distwar

#endif
