//===- EditPoints.cpp - where text may be inserted in the file ------------===//

#include "Group/EditPoints.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace distwar {

SourceLocation EditPoints::firstArgBegin(const CallExpr *Call) const {
  return Lexer::makeFileCharRange(
             CharSourceRange::getTokenRange(Call->getArg(0)->getSourceRange()),
             SM, Ctx.getLangOpts())
      .getBegin();
}

SourceLocation EditPoints::statementBegin(const Stmt *S) const {
  SourceLocation Begin = S->getBeginLoc();
  if (const AtomicSite *Site = siteOf(S); Site && Site->Invocation)
    return Site->Invocation->FileRange.getBegin();
  SourceLocation MacroBegin;
  if (Begin.isMacroID() && !Lexer::isAtStartOfMacroExpansion(
                               Begin, SM, Ctx.getLangOpts(), &MacroBegin))
    return SourceLocation();
  return Begin.isMacroID() ? MacroBegin : Begin;
}

SourceLocation EditPoints::afterStatement(const Stmt *S) const {
  SourceLocation End = S->getEndLoc();
  if (End.isMacroID()) {
    const AtomicSite *Site = siteOf(S);
    SourceLocation MacroEnd;
    if (Site && Site->Invocation)
      End = SM.getExpansionRange(End).getEnd();
    else if (Lexer::isAtEndOfMacroExpansion(End, SM, Ctx.getLangOpts(),
                                            &MacroEnd))
      End = SM.getExpansionRange(End).getEnd();
    else
      return SourceLocation();
  }
  std::optional<Token> Next = Lexer::findNextToken(End, SM, Ctx.getLangOpts());
  if (Next && Next->is(tok::semi) && !isa<CompoundStmt, DeclStmt>(S))
    return Next->getEndLoc();
  return Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
}

SourceLocation EditPoints::scopeBegin(const Stmt *Scope) const {
  if (const auto *Block = dyn_cast<CompoundStmt>(Scope))
    return Block->getLBracLoc().getLocWithOffset(1);
  return statementBegin(scopeStatements(Scope).front());
}

SourceLocation EditPoints::scopeEnd(const Stmt *Scope) const {
  if (const auto *Block = dyn_cast<CompoundStmt>(Scope))
    return Block->getRBracLoc();
  return afterStatement(scopeStatements(Scope).back());
}

std::optional<std::vector<std::pair<unsigned, unsigned>>>
EditPoints::conditionalBlocks(SourceLocation Begin, SourceLocation End,
                              unsigned *Unpaired) const {
  unsigned B = SM.getFileOffset(Begin), E = SM.getFileOffset(End);
  llvm::StringRef Data = SM.getBufferData(SM.getFileID(Begin));
  static const llvm::Regex Directive(
      "^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)"
      "([^A-Za-z0-9_]|$)");
  std::vector<std::pair<unsigned, unsigned>> Blocks;
  unsigned Depth = 0, Start = 0;
  auto Unpair = [&](unsigned Line) {
    if (Unpaired)
      *Unpaired = Line;
    return std::nullopt;
  };
  for (unsigned Line = B; Line < E;) {
    unsigned Next = Data.find('\n', Line);
    Next = Next == llvm::StringRef::npos ? Data.size() : Next + 1;
    llvm::SmallVector<llvm::StringRef, 3> M;
    if (Directive.match(Data.slice(Line, Next).rtrim("\r\n"), &M)) {
      llvm::StringRef Kind = M[1];
      if (Kind.starts_with("if")) {
        if (Depth++ == 0)
          Start = Line;
      } else if (Kind == "endif") {
        if (Depth == 0)
          return Unpair(Line);
        if (--Depth == 0)
          Blocks.push_back({Start, Next});
      } else if (Depth == 0) {
        return Unpair(Line); // #else or #elif of a block opened before
      }
    }
    Line = Next;
  }
  if (Depth)
    return Unpair(Start);
  return Blocks;
}

bool EditPoints::cutsConditional(SourceLocation Begin, SourceLocation End,
                                 llvm::ArrayRef<SourceLocation> Points,
                                 bool InsideOk,
                                 SourceLocation *Directive) const {
  if (Begin.isInvalid() || End.isInvalid())
    return true;
  // The '#' of the directive on the line at \p Offset.
  auto Blame = [&](unsigned Offset) {
    if (!Directive)
      return true;
    llvm::StringRef Data = SM.getBufferData(SM.getFileID(Begin));
    Offset = std::min<size_t>(Data.find('#', Offset), Data.size());
    *Directive = SM.getComposedLoc(SM.getFileID(Begin), Offset);
    return true;
  };
  unsigned Unpaired = 0;
  auto Blocks = conditionalBlocks(Begin, End, &Unpaired);
  if (!Blocks)
    return Blame(Unpaired);
  auto BlockOf = [&](SourceLocation L) -> int {
    unsigned O = SM.getFileOffset(L);
    for (size_t K = 0; K < Blocks->size(); ++K)
      if ((*Blocks)[K].first <= O && O < (*Blocks)[K].second)
        return K;
    return -1;
  };
  for (size_t I = 0; I < Points.size(); ++I) {
    if (Points[I].isInvalid())
      return true;
    int K = BlockOf(Points[I]);
    bool SitePair = InsideOk && I >= 2;
    if (K < 0)
      continue;
    if (!SitePair)
      return Blame((*Blocks)[K].first);
    // A site's begin and end: both inside the same block.
    size_t Partner = (I % 2 == 0) ? I + 1 : I - 1;
    if (Partner >= Points.size() || BlockOf(Points[Partner]) != K)
      return Blame((*Blocks)[K].first);
  }
  return false;
}

bool EditPoints::inConditionalBlock(const SiteGroup &G,
                                    const AtomicSite &S) const {
  auto Blocks =
      conditionalBlocks(statementBegin(G.First), afterStatement(G.Last));
  assert(Blocks && "a planned group's directives pair up");
  unsigned O = SM.getFileOffset(SM.getExpansionLoc(S.Call->getBeginLoc()));
  return llvm::any_of(
      *Blocks, [&](const auto &B) { return B.first <= O && O < B.second; });
}

bool EditPoints::spansConditional(SourceLocation Begin,
                                  SourceLocation End) const {
  unsigned B = SM.getFileOffset(Begin), E = SM.getFileOffset(End);
  llvm::StringRef Text = SM.getBufferData(SM.getFileID(Begin)).slice(B, E);
  static const llvm::Regex Directive(
      "(^|\n)[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)"
      "([^A-Za-z0-9_]|$)");
  return Directive.match(Text);
}

const AtomicSite *EditPoints::siteOf(const Stmt *S) const {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  for (const AtomicSite &Site : Sites)
    if (Site.Call == E)
      return &Site;
  return nullptr;
}

} // namespace distwar
