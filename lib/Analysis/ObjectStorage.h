//===- ObjectStorage.h - stores into an object's own members ----*- C++ -*-===//
//
// A method that stores only into its own object (`v -= w`, `m[i] = x`
// through `col &operator[](int)`) changes memory its caller owns when the
// object is the caller's local: such a call writes no buffer. These
// questions tell the method's own object from anything else it may reach.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_OBJECTSTORAGE_H
#define DISTWAR_ANALYSIS_OBJECTSTORAGE_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace distwar {

/// The object a call of a non-static method acts on (`v` in `v.f()` and in
/// `v -= w` of a member operator, `this` in `f()` inside a method), or null
/// for any other call and for `p->f()`.
const clang::Expr *callObject(const clang::CallExpr *Call);

/// Whether \p E, an lvalue in the body of a method that is not a lambda's,
/// is (part of) the storage of the method's own object: `x`, `this->m.y`,
/// `(*this).a[i]` where every step is a member held by value or an element
/// of a member array.
bool isOwnObjectStorage(const clang::Expr *E,
                        const clang::FunctionDecl *Method);

/// Whether \p M returns a reference into its own object's storage on every
/// return (`return c[i];`, `return i ? y : x;`): what the call designates is
/// then part of the object it is called on.
bool returnsOwnStorage(const clang::CXXMethodDecl *M);

/// The variable whose own storage \p E designates, through members held by
/// value, elements of arrays and calls of methods that return their own
/// storage (`J[0][1]` of a local matrix), or null (a load through a pointer
/// or a reference, any other call).
const clang::VarDecl *objectStorageRoot(const clang::Expr *E);

} // namespace distwar

#endif
