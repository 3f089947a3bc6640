//===- AddressParts.h - An address split into pointer and index -*- C++ -*-===//
//
// The syntax of an atomic's address, before any question of uniformity:
// `&buf[i].x`, `buf + key * K + c` and their dependent forms split into the
// pointer or array, the terms of the index, and the members selected.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_ADDRESSPARTS_H
#define DISTWAR_FIND_ADDRESSPARTS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <utility>

namespace distwar {

/// The parts of an element's address: the pointer or array, the index (its
/// terms when it is a sum) and the members selected in the element.
struct AddressParts {
  const clang::Expr *Base = nullptr;
  const clang::Expr *Index = nullptr;
  llvm::SmallVector<const clang::Expr *, 4> IndexTerms;
  std::string Member; ///< e.g. ".x", ".pos.y"
};

/// The operands of \p E when it is a built-in `a + b` (in a template also an
/// unresolved operator call that can only be the built-in one: torch's
/// headers declare many operator+, which leaves `p + i` unresolved when p is
/// a `T *`).
std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
sumOperands(const clang::Expr *E);

/// The terms of the sum \p E, appended to \p Terms (E itself when it is no
/// sum).
void flattenSum(const clang::Expr *E,
                llvm::SmallVectorImpl<const clang::Expr *> &Terms);

/// `&e.a.b`, `&(&e)->a` (macros taking a pointer write it that way), and
/// their dependent forms: the member path, and e.
const clang::Expr *peelMembers(const clang::Expr *E, std::string &Member);

/// Whether \p Key's type can key a group: an integer or enumeration of 4 or
/// 8 bytes (not bool), or a type not known before instantiation.
bool isIntegralKey(const clang::Expr *Key, const clang::ASTContext &Ctx);

/// `buf + key * K + c`, in any order: one pointer term, the rest the index
/// (no base when two terms are pointers).
void splitPointerSum(const clang::Expr *Addr, AddressParts &Parts);

} // namespace distwar

#endif
