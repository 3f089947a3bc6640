//===- OpaqueKeys.h - keys computed by pure device functions ----*- C++ -*-===//
//
// An index written as a call of a pure device function
// (`p.cubemap.nhwcIndexContinuous(s, y, x, 0)`, `texelIndex(u, v)`) is an
// opaque key: the tool does not look inside it. Calls of one function on the
// same object and the same arguments, compile-time constants aside, name
// fields of one primitive and join one group.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_OPAQUEKEYS_H
#define DISTWAR_FIND_OPAQUEKEYS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/FoldingSet.h"

namespace distwar {

/// The call when \p Key is a call of a pure function (a const method of a
/// pure object expression included) whose arguments have no side effects.
const clang::CallExpr *opaqueCallKey(const clang::Expr *Key,
                                     clang::ASTContext &Ctx);

/// True when evaluating \p Key again may change something: side effects
/// other than the call of a pure function.
bool keyHasSideEffects(const clang::Expr *Key, clang::ASTContext &Ctx);

/// The identity under which sites are grouped: the key's structure, except
/// that compile-time constant arguments of an opaque call key are ignored.
void profileGroupKey(const clang::Expr *Key, llvm::FoldingSetNodeID &Id,
                     clang::ASTContext &Ctx);

/// True when two keys of one group are not the same expression (opaque calls
/// differing in constant arguments): equal keys in two lanes then need not
/// mean equal addresses, so the group needs a warp-uniform key.
bool keysDiffer(const clang::Expr *A, const clang::Expr *B,
                clang::ASTContext &Ctx);

} // namespace distwar

#endif
