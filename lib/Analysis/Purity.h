//===- Purity.h - calls that write nothing and read only values -*- C++ -*-===//
//
// Whether a call may be moved, repeated or run in lanes that would have
// skipped it: it writes no memory and does not synchronise (pure), or
// moreover reads nothing but its arguments (the same result in every lane
// given the same arguments).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_PURITY_H
#define DISTWAR_ANALYSIS_PURITY_H

#include "clang/AST/Decl.h"

namespace clang {
class CXXOperatorCallExpr;
} // namespace clang

namespace distwar {

/// True for an operator call in a template whose operands are arithmetic or
/// pointers in every instantiation: it is the builtin operator.
bool isBuiltinOperatorCall(const clang::CXXOperatorCallExpr *Op);

/// True when a call to \p FD can neither write memory nor synchronise: a known
/// math builtin, or a visible device function whose body only computes.
bool isPureCallee(const clang::FunctionDecl *FD);

/// True when a call to \p FD computes its result from its arguments alone,
/// the same in every lane given the same arguments: a known math function,
/// or a visible pure body that reads no memory through pointers, no thread
/// or block index and no mutable global, and calls only such functions.
bool readsOnlyArguments(const clang::FunctionDecl *FD);

/// True for a math function of the known list (sqrtf, exp, min, ...) as
/// CUDA's headers or the compiler declare it: no memory access at all,
/// whatever its arguments.
bool isKnownMathFunction(const clang::FunctionDecl *FD);

/// True when evaluating \p S reads no memory through a pointer and calls
/// nothing that is not a pure function: safe for lanes that never did.
bool readsNoMemory(const clang::Stmt *S);

/// True when \p S assigns or increments something (calls are judged by
/// readsNoMemory).
bool writesSomething(const clang::Stmt *S);

/// True for a statement expression, new, delete, throw or inline assembly:
/// it runs or allocates what no analysis here looks into.
bool hasOpaqueEffects(const clang::Stmt *S);

/// True when \p S calls what is not a pure function (a call may write
/// memory or synchronise lanes), assigns through a template operator, or
/// runs statements or allocates.
bool callsImpure(const clang::Stmt *S);

/// writesSomething or callsImpure.
bool hasSideEffects(const clang::Expr *E);

} // namespace distwar

#endif
