//===- Grouping.h - sites that update one primitive per iteration -*- C++
//-*-===//
//
// Sites with the same key expression and element type in one loop iteration
// (or one function body) form a group; the group's region is the run of
// statements of its innermost enclosing block from the statement holding the
// first site to the one holding the last.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_GROUPING_H
#define DISTWAR_GROUPING_H

#include "distwar/AtomicSites.h"

namespace distwar {

struct SiteGroup {
  std::vector<size_t> Sites; ///< indices into the site list, source order
  const clang::FunctionDecl *Function = nullptr;
  /// Innermost block holding every site, and its children holding the first
  /// and last site (the region is First..Last inclusive).
  const clang::CompoundStmt *Scope = nullptr;
  const clang::Stmt *First = nullptr;
  const clang::Stmt *Last = nullptr;
  Reason Why = Reason::None;
  std::string Name; ///< "<function>#k" once batched
};

/// Forms groups from every site without a site-level reason. Groups are in
/// source order of their first site; Why is not decided here. A site under an
/// `if` whose condition may differ across lanes leaves its group (its Why
/// becomes VaryingCondition) when the rest of the group can be batched
/// without it; a site under a grid-uniform condition (a nullable output
/// pointer) stays in the group as a conditional field.
std::vector<SiteGroup> groupSites(clang::ASTContext &Ctx,
                                  std::vector<AtomicSite> &Sites);

/// The loop whose iteration holds \p S (its channel loop excluded), or the
/// function body.
const clang::Stmt *iterationOf(const AtomicSite &S);

/// The statement holding site \p S that is a direct child of \p Scope, or
/// null when the site is not inside \p Scope.
const clang::Stmt *childOfScope(const AtomicSite &S,
                                const clang::CompoundStmt *Scope);

} // namespace distwar

#endif
