//===- VarWrites.h - where a variable may change ----------------*- C++ -*-===//

#ifndef DISTWAR_ANALYSIS_VARWRITES_H
#define DISTWAR_ANALYSIS_VARWRITES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace distwar {

/// The variable \p E names (through parentheses and implicit casts), or null.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// Whether \p S (null: no) names one of \p Vars anywhere.
bool refersToAny(const clang::Stmt *S,
                 const llvm::DenseSet<const clang::VarDecl *> &Vars);

/// The variable that \p E designates or indexes into (`v`, `v[i].x`, `*v`),
/// or null.
const clang::VarDecl *rootVariable(const clang::Expr *E);

/// The variable whose own storage \p E designates: `v`, `v.a.b`, `v.arr[i]`;
/// never through a pointer (`v.ptr[i]`, `*v.ptr`, `v.ptr->x`), or null.
const clang::VarDecl *storageRoot(const clang::Expr *E);

/// The first statement in \p Root that may change \p V: assignment,
/// increment, address taken, bound to a non-const reference. With \p Through,
/// stores into what \p V designates (`v[i] = x`) count as well.
const clang::Stmt *findWrite(const clang::Stmt *Root, const clang::VarDecl *V,
                             bool Through);

/// The first statement in \p Root that may change the storage of \p V
/// itself, members and member arrays included (`v.a = x`, `v.arr[i] = x`,
/// `&v.a`, a non-const method of `v.a`), but not stores through pointers it
/// holds (`v.ptr[i] = x`, `&v.ptr[i]`): a by-value struct parameter whose
/// pointer members are written through stays unchanged.
const clang::Stmt *findStorageWrite(const clang::Stmt *Root,
                                    const clang::VarDecl *V);

/// A statement that may change a variable, and what it stores.
struct VarWrite {
  const clang::Stmt *At;
  /// The stored value, or an assignment's right side (`v += x`: x); null
  /// where not known (a partial write, an escape, a store through an alias).
  const clang::Expr *Value;
  bool SelfStep; ///< `++v`, `v--`: a step of the old value
};

/// Appends every statement in \p Root that may change \p V, in source order
/// (what findWrite with `Through` would find, each with its value).
void collectWrites(const clang::Stmt *Root, const clang::VarDecl *V,
                   llvm::SmallVectorImpl<VarWrite> &Out);

/// Appends every variable \p S names, in order, repeats included.
void collectVars(const clang::Stmt *S,
                 llvm::SmallVectorImpl<const clang::VarDecl *> &Out);

/// The pointer that \p S loads through (`p[i]`, `*p`, `p->x`; not
/// `this->x`), or null.
const clang::Expr *loadedPointer(const clang::Stmt *S);

} // namespace distwar

#endif
