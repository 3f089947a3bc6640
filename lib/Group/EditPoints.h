//===- EditPoints.h - where text may be inserted in the file ----*- C++ -*-===//
//
// Batching inserts text before, between and after statements, and every
// such point must lie in the user's file (not inside a macro expansion) and
// outside preprocessor conditional blocks that the insertion would cut. The
// stage that decides whether a group may be batched and the one that writes
// the edits ask the same questions here.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_GROUP_EDITPOINTS_H
#define DISTWAR_GROUP_EDITPOINTS_H

#include "Find/AtomicSites.h"
#include "Group/Grouping.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <utility>
#include <vector>

namespace distwar {

class EditPoints {
public:
  EditPoints(clang::ASTContext &Ctx, const std::vector<AtomicSite> &Sites)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites) {}

  /// The file that holds \p G's function: the main file or a header.
  clang::FileID fileOf(const SiteGroup &G) const {
    return SM.getFileID(SM.getExpansionLoc(G.Function->getLocation()));
  }

  /// Where the first argument starts in the file (it may begin with a
  /// macro invocation, `atomicAdd(PTR(i), v)`), or invalid.
  clang::SourceLocation firstArgBegin(const clang::CallExpr *Call) const;

  /// Where \p S starts in the file: a statement from a macro starts where
  /// the invocation does, when it is the expansion's first.
  clang::SourceLocation statementBegin(const clang::Stmt *S) const;

  /// Just after \p S, including the ';' that ends an expression statement.
  /// A statement from a macro must end where the invocation does, unless
  /// the invocation is replaced whole (then its end counts).
  clang::SourceLocation afterStatement(const clang::Stmt *S) const;

  /// Where text goes at the start and at the end of scope \p Scope's
  /// statements (SiteGroup::Scope): just inside a block's braces, or just
  /// before and after a loop body without braces (inside the braces that
  /// the rewrite adds there).
  clang::SourceLocation scopeBegin(const clang::Stmt *Scope) const;
  clang::SourceLocation scopeEnd(const clang::Stmt *Scope) const;

  /// The outermost #if ... #endif blocks in [Begin, End) as offsets of
  /// their first and past their last directive line, or nullopt when a
  /// directive there has no partner inside the range (then \p Unpaired,
  /// when given, is the offset of its line).
  std::optional<std::vector<std::pair<unsigned, unsigned>>>
  conditionalBlocks(clang::SourceLocation Begin, clang::SourceLocation End,
                    unsigned *Unpaired = nullptr) const;

  /// Whether the directives in [Begin, End) do not pair up there, or one of
  /// \p Points (where text is inserted) lies inside an #if block. With
  /// \p InsideOk, a point may lie inside a block when its partner of the
  /// same site (the next point) lies inside the same one. \p Directive,
  /// when given, is set to the directive at fault where there is one: the
  /// #if of the block a point cuts, or the one without a partner.
  bool cutsConditional(clang::SourceLocation Begin, clang::SourceLocation End,
                       llvm::ArrayRef<clang::SourceLocation> Points,
                       bool InsideOk,
                       clang::SourceLocation *Directive = nullptr) const;

  /// Whether site \p S lies inside an #if block of \p G's region.
  bool inConditionalBlock(const SiteGroup &G, const AtomicSite &S) const;

  /// Whether a preprocessor conditional directive lies in [Begin, End).
  bool spansConditional(clang::SourceLocation Begin,
                        clang::SourceLocation End) const;

  /// The site whose call \p S is (through parentheses and casts), or null.
  const AtomicSite *siteOf(const clang::Stmt *S) const;

private:
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const std::vector<AtomicSite> &Sites;
};

} // namespace distwar

#endif
