//===- Grouping.h - sites that update one primitive -------------*- C++ -*-===//
//
// Sites with the same key expression and element type in one loop iteration
// (or one function body) form a group; the group's region is the run of
// statements of its innermost enclosing block from the statement holding the
// first site to the one holding the last. A loop body without braces counts
// as a block of one statement; the rewrite puts the braces around it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_GROUP_GROUPING_H
#define DISTWAR_GROUP_GROUPING_H

#include "Find/AtomicSites.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace distwar {

struct SiteGroup {
  std::vector<size_t> Sites; ///< indices into the site list, source order
  const clang::FunctionDecl *Function = nullptr;
  /// Innermost block holding every site, and its statements holding the
  /// first and last site (the region is First..Last inclusive). Where the
  /// group's loop body is one statement without braces, Scope is the loop and
  /// that statement its only one (scopeStatements): the rewrite braces it.
  const clang::Stmt *Scope = nullptr;
  const clang::Stmt *First = nullptr;
  const clang::Stmt *Last = nullptr;
  /// The `if` statements of the region, between a site and Scope, whose
  /// conditions may differ across lanes: the fields of the sites under them
  /// are set by some lanes of a key and not others (LaneSet slots).
  llvm::SmallVector<const clang::IfStmt *, 2> LaneIfs;
  /// Parts of one group split at per-lane `continue`s share a nonzero
  /// SplitId (splitAtContinues); 0 for a group that was not split.
  unsigned SplitId = 0;
  /// In a group joined again across converted continues, the position in
  /// Sites of the first site after the first continue: the fields from there
  /// on are set only by the lanes that did not continue (LaneSet slots). 0
  /// when the group was not joined.
  size_t AfterContinue = 0;
  /// Why the group is left alone (None: batched), and where that is; set
  /// by Decide, whose plan (Plan/GroupPlan.h) carries it on.
  Verdict Why;
};

/// Whether site \p S lies under one of \p G's LaneIfs.
bool underLaneIf(const AtomicSite &S, const SiteGroup &G);

/// Whether \p A, reached from its child \p Child on a site's path to the
/// scope, is one of \p G's LaneIfs with the site in a branch (not in the
/// condition).
bool isLaneIfAbove(const clang::Stmt *A, const clang::Stmt *Child,
                   const SiteGroup &G);

/// Forms groups from every site without a site-level reason. Groups are in
/// source order of their first site; Why is not decided here. A site under
/// plain `if`s whose conditions may differ across lanes stays in its group
/// as a LaneSet field (the ifs join LaneIfs); under other lane-dependent
/// control it leaves the group (its Why becomes VaryingCondition) when the
/// rest of the group can be batched without it. A site under a grid-uniform
/// condition (a nullable output pointer) stays as a conditional field.
std::vector<SiteGroup> groupSites(clang::ASTContext &Ctx,
                                  std::vector<AtomicSite> &Sites);

/// The group of site \p I alone, its scope and lane-dependent ifs found as
/// groupSites finds them for a group of one site.
SiteGroup singleSiteGroup(clang::ASTContext &Ctx,
                          const std::vector<AtomicSite> &Sites, size_t I);

/// The loop whose iteration holds \p S (its channel loop excluded), or the
/// function body.
const clang::Stmt *iterationOf(const AtomicSite &S);

/// The statement holding site \p S that is a direct child of \p Scope, or
/// null when the site is not inside \p Scope.
const clang::Stmt *childOfScope(const AtomicSite &S, const clang::Stmt *Scope);

/// The statements of a group's scope, in order: a block's, or the body of a
/// loop whose body has no braces.
llvm::ArrayRef<clang::Stmt *> scopeStatements(const clang::Stmt *Scope);

} // namespace distwar

#endif
