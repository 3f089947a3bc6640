//===- EditList.h - Text edits of one rewrite, per file ---------*- C++ -*-===//
//
// The planner's edits, collected at file offsets and combined into one
// tooling::Replacements per edited file: insertions that share an offset are
// merged in rank order, and an insertion in front of a preprocessor directive
// goes on a line of its own (in the compact form with a #line that gives the
// directive its number back; the formatted form places its own). An edit that
// would land in a macro body or a file that may not be edited is not made; the
// whole rewrite is then refused.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_EDITLIST_H
#define DISTWAR_EMIT_EDITLIST_H

#include "Emit/LineDirectives.h"
#include "Find/AtomicSites.h"
#include "Plan/GroupPlan.h"
#include "distwar-rewrite/Options.h"
#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace distwar {

/// The included files whose device functions may be edited, each with its
/// path relative to the --edit-headers entry that allows it.
/// Insertions at one offset are ordered by rank, then by planning order.
enum Rank {
  RankPrologue,
  /// The end of a loop's versions (a strip's, StripMining.h; a two-form
  /// butterfly's, runForms), just after the loop: before anything that
  /// encloses the loop closes there. No loop has both.
  RankLoopVersionsClose,
  RankFormVersionsClose,
  /// The end of a loop body without braces: the texts of its groups, then
  /// its closing brace (before what enclosing statements add there).
  RankBodyEnd,
  RankReduce,
  /// The end of a strip's lap loop and its reduction (StripMining.h), after
  /// the lap's last texts.
  RankStripClose,
  /// The end of one reduction of a versioned loop's groups together, after
  /// their parts.
  RankJointClose,
  /// A versioned loop's end and start (ChannelVersions.h): after its
  /// groups' reductions, before their batches.
  RankVersionClose,
  RankVersionOpen,
  /// A strip's lap loop opens before the lap's batch is declared.
  RankStripOpen,
  RankBatch,
  RankPragma,
  RankSlot,
  RankCursor,
  /// The start of a loop's versions, just before the loop: inside anything
  /// that encloses the loop and opens there.
  RankLoopVersionsOpen,
  RankFormVersionsOpen
};

class EditList {
public:
  EditList(clang::ASTContext &Ctx, llvm::StringRef FilePath,
           const EditableHeaders *Headers, const OutputLayout &Layout)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), FilePath(FilePath),
        Headers(Headers), Layout(Layout) {}

  /// The main file, or a header that --edit-headers allows.
  bool editable(clang::FileID File) const;
  /// Whether \p Loc is the first token of its line (a directive may be
  /// inserted in front of it).
  bool beginsLine(clang::SourceLocation Loc) const;
  const OutputLayout &layout() const { return Layout; }

  /// Inserts (or replaces \p Length bytes with) \p Text at \p Loc.
  void add(clang::SourceLocation Loc, unsigned Length, std::string Text,
           Rank R);
  /// The same at an offset of \p File (which must be editable).
  void addAt(clang::FileID File, unsigned Offset, unsigned Length,
             std::string Text, Rank R);
  /// Replaces the tokens [Begin, End] with \p Text.
  void replaceTokens(clang::SourceLocation Begin, clang::SourceLocation End,
                     std::string Text);
  /// Replaces [Begin, End) with \p Text plus as many newlines as it held.
  void replaceKeepingLines(clang::SourceLocation Begin,
                           clang::SourceLocation End, std::string Text);
  /// Each macro invocation holding one of \p Members, replaced whole.
  void replaceInvocations(const std::vector<AtomicSite> &Sites,
                          llvm::ArrayRef<size_t> Members,
                          llvm::function_ref<std::string(size_t)> Callee,
                          llvm::function_ref<std::string(size_t)> Prefix);

  /// Whether no edit of \p File starts inside [Offset, Offset + Length] or
  /// covers any of it, insertions of rank \p Allowed aside.
  bool isFree(clang::FileID File, unsigned Offset, unsigned Length,
              std::optional<Rank> Allowed = std::nullopt) const;
  /// Whether an edit was refused (a macro body, a file not editable).
  bool landedOutside() const { return NotInFile; }
  /// The files that have edits, the main file first if it has any.
  std::vector<clang::FileID> editedFiles() const;
  /// `#line Line "file"` for \p FID, named as its output names it (`#line
  /// Line` when names are omitted).
  std::string lineDirective(clang::FileID FID, unsigned Line) const;

  /// The edits of \p FID as one valid set of replacements.
  llvm::Expected<clang::tooling::Replacements> finish(clang::FileID FID) const;

private:
  struct Edit {
    clang::FileID File;
    unsigned Offset = 0, Length = 0;
    std::string Text;
    Rank Order = RankSlot;
  };

  std::optional<unsigned> directiveLineStart(clang::FileID FID,
                                             unsigned Offset) const;
  std::string restoringDirective(clang::FileID FID, unsigned Offset) const;

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  std::string FilePath;
  const EditableHeaders *Headers;
  const OutputLayout &Layout;
  std::vector<Edit> Edits;
  bool NotInFile = false;
};

/// \p S with a backslash before each quote and backslash.
std::string escapeString(llvm::StringRef S);

/// Where \p Offset of \p FID is presumed to be, and the file name a #line
/// directive there gives (\p MainPath for the main file, quoted; none when
/// \p Names omits them, unless the user's own #line directives renamed it).
PresumedLine presumedLine(const clang::SourceManager &SM, clang::FileID FID,
                          unsigned Offset, llvm::StringRef MainPath,
                          LineFileNames Names);

} // namespace distwar

#endif
