//===- CursorEdits.cpp - Shared-array cursors, written --------------------===//

#include "Emit/CursorEdits.h"
#include "Analysis/ExprText.h"
#include "Emit/SharedCursors.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace distwar {

namespace {

/// A replacement of [Offset, Offset + Length) by Text.
struct Span {
  unsigned Offset, Length;
  std::string Text;
};

class CursorWriter {
public:
  CursorWriter(ASTContext &Ctx, FileID File, EditList &Edits)
      : SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), File(File),
        Edits(Edits) {}

  /// The tokens [Begin, End] replaced by \p Text.
  Span tokens(SourceLocation Begin, SourceLocation End,
              std::string Text) const {
    unsigned B = SM.getFileOffset(Begin);
    unsigned E = SM.getFileOffset(Lexer::getLocForEndOfToken(End, 0, SM, LO));
    return Span{B, E - B, std::move(Text)};
  }

  /// \p S widened over the blanks before it (\p Before) or after it, so
  /// that removing `+ j` leaves no stray space.
  Span withBlanks(Span S, bool Before) const {
    llvm::StringRef Data = SM.getBufferData(File);
    if (Before)
      while (S.Offset > 0 && llvm::is_contained(" \t", Data[S.Offset - 1]))
        --S.Offset, ++S.Length;
    else
      while (S.Offset + S.Length < Data.size() &&
             llvm::is_contained(" \t", Data[S.Offset + S.Length]))
        ++S.Length;
    return S;
  }

  bool isFree(const Span &S) const {
    return Edits.isFree(File, S.Offset, S.Length);
  }
  /// Whether the loop's start is free for the cursors' declarations, which
  /// go before the form versions of the loop (they are captured). A strip
  /// steps several iterations per pass, which one cursor step does not
  /// follow: no cursors there.
  bool isFreeBefore(const Span &S) const {
    return Edits.isFree(File, S.Offset, S.Length, RankFormVersionsOpen);
  }

  /// The cursor's name for the array and the index without the counter
  /// (`j` -> `0`; `e + j` -> `e`; `j + e` -> `e`), for each use whose tokens
  /// no other edit touches.
  std::vector<Span> accesses(const SharedCursor &C,
                             const std::string &Name) const {
    std::vector<Span> Mine;
    for (const CursorUse &U : C.Uses) {
      Span Base =
          tokens(U.Array->getLocation(), U.Array->getLocation(), Name);
      Span Index =
          !U.Sum ? tokens(U.Counter->getLocation(), U.Counter->getLocation(),
                          "0")
          : U.Sum->getRHS()->IgnoreImpCasts() == U.Counter
              ? withBlanks(tokens(U.Sum->getOperatorLoc(),
                                  U.Counter->getLocation(), ""),
                           /*Before=*/true)
              : withBlanks(tokens(U.Counter->getLocation(),
                                  U.Sum->getOperatorLoc(), ""),
                           /*Before=*/false);
      if (isFree(Base) && isFree(Index)) {
        Mine.push_back(std::move(Base));
        Mine.push_back(std::move(Index));
      }
    }
    return Mine;
  }

private:
  const SourceManager &SM;
  const LangOptions &LO;
  FileID File;
  EditList &Edits;
};

} // namespace

void planCursorEdits(ASTContext &Ctx, const FunctionDecl *Function,
                     const ForStmt *Loop, EditList &Edits,
                     std::map<FileID, unsigned> &Counts) {
  std::optional<CursorPlan> Plan = planSharedCursors(Ctx, Function, Loop);
  if (!Plan)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  FileID File = SM.getFileID(Loop->getBeginLoc());
  CursorWriter Writer(Ctx, File, Edits);
  SourceLocation IncEnd = Lexer::getLocForEndOfToken(
      Loop->getInc()->getEndLoc(), 0, SM, Ctx.getLangOpts());
  Span Before{SM.getFileOffset(Loop->getBeginLoc()), 0, ""};
  Span After{SM.getFileOffset(IncEnd), 0, ""};
  if (!Edits.editable(File) || !Writer.isFreeBefore(Before) ||
      !Writer.isFree(After))
    return;
  std::vector<Span> Accesses;
  std::string Decls, Increments;
  for (const SharedCursor &C : Plan->Cursors) {
    unsigned &Count = Counts[File];
    std::string Name = "distwar_cursor" + std::to_string(Count);
    std::vector<Span> Mine = Writer.accesses(C, Name);
    if (Mine.empty())
      continue;
    ++Count;
    Decls += "auto *" + Name + " = " +
             sumText(C.Array->getName().str(), llvm::toString(Plan->Start, 10)) +
             "; ";
    Increments += ", ++" + Name;
    llvm::append_range(Accesses, Mine);
  }
  if (Decls.empty())
    return;
  Edits.addAt(File, Before.Offset, 0, Decls, RankCursor);
  Edits.addAt(File, After.Offset, 0, Increments, RankCursor);
  for (Span &S : Accesses)
    Edits.addAt(File, S.Offset, S.Length, std::move(S.Text), RankCursor);
}

} // namespace distwar
