//===- GroupSafety.h - may a group's atomics be deferred? -------*- C++ -*-===//
//
// Batching moves each atomic of a group to the group's end. That keeps the
// meaning only when nothing in between observes or changes the destination
// buffers or the key, and every lane that reaches the first atomic reaches the
// end. This is where that is decided, conservatively.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_GROUPSAFETY_H
#define DISTWAR_DECIDE_GROUPSAFETY_H

#include "Group/Grouping.h"
#include "clang/AST/ExprCXX.h"

namespace distwar {

/// Reason::None when \p G may be batched as the serial variant, or, with
/// \p Converted (the continues an active flag turns into `live = false`), as
/// one butterfly across them; else the reason, with the statement that
/// causes it where one does.
Verdict
checkGroupSafety(clang::ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                 const SiteGroup &G,
                 llvm::ArrayRef<const clang::ContinueStmt *> Converted = {});

/// The first break/continue/return/goto in the region of \p G that leaves the
/// iteration, other than the \p Converted continues, or null. Kept apart so
/// that a divergence pass can convert what it can prove instead of refusing.
const clang::Stmt *
findIterationExit(const SiteGroup &G,
                  llvm::ArrayRef<const clang::ContinueStmt *> Converted = {});

/// Reason::None when \p G's atomics may also be deferred past \p Stmts
/// (which neither touch its buffers nor leave the iteration).
Verdict checkStatementsBetween(const std::vector<AtomicSite> &Sites,
                               const SiteGroup &G,
                               llvm::ArrayRef<const clang::Stmt *> Stmts);

/// Reason::None when no variable of \p Declared (declarations that are
/// visible where the reduction is written, but were not where the sites
/// are) hides a name that the reduction evaluates again: a site's address,
/// the key, a condition of a site.
Verdict checkNamesKept(const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                       llvm::ArrayRef<const clang::VarDecl *> Declared);

/// The variables declared by the declaration statements among \p Stmts.
void declaredIn(llvm::ArrayRef<const clang::Stmt *> Stmts,
                llvm::SmallVectorImpl<const clang::VarDecl *> &Out);

/// The batch's size is spelled with its channel loops' trip counts where
/// the batch is declared, at \p BatchAt: they may use no local declared
/// there or later (an invalid \p BatchAt: no local at all).
Verdict tripCountsVisibleAt(clang::ASTContext &Ctx,
                            const std::vector<AtomicSite> &Sites,
                            const SiteGroup &G, clang::SourceLocation BatchAt);

/// The channel loop of run-time trip count that \p G's sites are in (the
/// rewriter versions it), or null.
const ChannelLoop *versionedLoopOf(const std::vector<AtomicSite> &Sites,
                                   const SiteGroup &G);

/// The reads of safe group \p G's versioned loop that may be of its
/// destinations: the loop's versions run only where a run-time test finds
/// their ranges apart from the group's adds.
std::vector<const clang::Expr *>
versionedLoopReads(const std::vector<AtomicSite> &Sites, const SiteGroup &G);

} // namespace distwar

#endif
