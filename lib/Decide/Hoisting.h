//===- Hoisting.h - declarations moved out of a guard -----------*- C++ -*-===//
//
// Under an active flag the statements after a converted `continue` run in
// a guard; a declaration there that later statements use is hoisted to the
// loop body's start (declared there, assigned where it was). That keeps the
// meaning only for plain variables whose name means the same everywhere
// it is now visible.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_HOISTING_H
#define DISTWAR_DECIDE_HOISTING_H

#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

namespace distwar {

/// Whether \p V can be declared at the body's start and assigned where it
/// was declared: a scalar or trivially copyable local, initialised with `=`
/// if at all (no reference, array, static, __shared__ or auto).
bool hoistable(const clang::VarDecl *V);

/// Whether \p DS declares only constants (const or constexpr scalars whose
/// initialisers are constant expressions naming no local variable): moved
/// whole to the body's start they mean the same, and stay usable where a
/// constant is needed (an array bound, a template argument).
bool hoistableWhole(const clang::DeclStmt *DS, clang::ASTContext &Ctx);

/// A hoisted declaration is visible from the body's start: no statement
/// before its original place may name another variable of the same name
/// (it would name the hoisted one instead).
Reason checkHoistedNames(llvm::ArrayRef<clang::Stmt *> Stmts,
                         llvm::ArrayRef<const clang::DeclStmt *> Hoisted);

} // namespace distwar

#endif
