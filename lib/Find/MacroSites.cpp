//===- MacroSites.cpp - atomics written through macros --------------------===//

#include "Find/MacroSites.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include <map>

using namespace clang;

namespace distwar {

std::string expandedText(const Expr *E, const syntax::TokenBuffer &Tokens,
                         const SourceManager &SM) {
  std::string Out;
  for (const syntax::Token &T : Tokens.expandedTokens(E->getSourceRange())) {
    if (!Out.empty())
      Out += ' ';
    Out += T.text(SM).str();
  }
  return Out;
}

namespace {

/// Index of the first token of \p R within \p All, or -1.
long indexIn(llvm::ArrayRef<syntax::Token> All,
             llvm::ArrayRef<syntax::Token> R) {
  if (R.empty() || R.data() < All.data() ||
      R.data() + R.size() > All.data() + All.size())
    return -1;
  return R.data() - All.data();
}

class Resolver {
public:
  Resolver(ASTContext &Ctx, const syntax::TokenBuffer &Tokens,
           std::vector<AtomicSite> &Sites)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Tokens(Tokens), Sites(Sites) {}

  void run() {
    // Every site from a macro, by its top-level invocation: members of one
    // invocation are decided together.
    std::map<unsigned, std::vector<size_t>> ByInvocation;
    std::map<unsigned, CharSourceRange> Ranges;
    for (size_t I = 0; I < Sites.size(); ++I) {
      AtomicSite &S = Sites[I];
      SourceLocation Begin = S.Call->getBeginLoc();
      if (Begin.isFileID()) {
        if (S.Why == Reason::MacroExpansion)
          resolveArgumentsOnly(S);
        continue;
      }
      CharSourceRange Inv = SM.getExpansionRange(Begin);
      CharSourceRange InvEnd = SM.getExpansionRange(S.Call->getEndLoc());
      // The invocation lies in the function's own file (the main file or
      // an editable header).
      if (Inv.getBegin() != InvEnd.getBegin() ||
          SM.getFileID(Inv.getBegin()) !=
              SM.getFileID(SM.getExpansionLoc(S.Function->getLocation())))
        continue;
      unsigned Key = Inv.getBegin().getRawEncoding();
      ByInvocation[Key].push_back(I);
      Ranges[Key] = Inv;
    }
    for (auto &[Key, Members] : ByInvocation)
      resolveInvocation(Ranges[Key], Members);
  }

private:
  /// `atomicAdd(ADDR(i), v)`: the callee is in the file; only the first
  /// argument's start must map to the file.
  void resolveArgumentsOnly(AtomicSite &S) {
    const Expr *Arg = S.Call->getArg(0);
    CharSourceRange A = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Arg->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (A.isInvalid() || !S.Call->getRParenLoc().isFileID() ||
        S.Call->getCallee()->getEndLoc().isMacroID())
      return;
    if (S.KeyText.empty())
      S.KeyText = expandedText(S.Key, Tokens, SM);
    S.Why = Reason::None;
  }

  /// Token indices of a member's callee and first argument in the
  /// expansion.
  struct CallTokens {
    long CalleeBegin, CalleeEnd, Arg;
  };

  void resolveInvocation(CharSourceRange Inv,
                         const std::vector<size_t> &Members) {
    auto Refuse = [&](Reason R) {
      for (size_t I : Members)
        if (Sites[I].Why == Reason::MacroExpansion)
          Sites[I].Why = R;
    };
    const syntax::Token *First = Tokens.spelledTokenContaining(Inv.getBegin());
    std::optional<syntax::TokenBuffer::Expansion> Exp =
        First ? Tokens.expansionStartingAt(First) : std::nullopt;
    if (!Exp)
      return Refuse(Reason::MacroNotStatements);
    llvm::ArrayRef<syntax::Token> All = Exp->Expanded;
    const DoStmt *Wrapper = nullptr;
    size_t BodyBegin = 0, BodyEnd = All.size();
    if (All.front().kind() == tok::kw_do)
      if (Reason R = checkWrapper(All, Members, Wrapper, BodyBegin, BodyEnd);
          R != Reason::None)
        return Refuse(R);
    std::vector<CallTokens> Where;
    if (!coversStatements(All, Members, BodyBegin, BodyEnd, Where))
      return Refuse(Reason::MacroNotStatements);
    std::shared_ptr<MacroInvocation> Invocation =
        makeInvocation(Inv, All, Wrapper);
    if (!Invocation)
      return Refuse(Reason::MacroNotStatements);
    for (size_t M = 0; M < Members.size(); ++M) {
      AtomicSite &S = Sites[Members[M]];
      S.Invocation = Invocation;
      S.CalleeBegin = Where[M].CalleeBegin;
      S.CalleeEnd = Where[M].CalleeEnd;
      S.FirstArgToken = Where[M].Arg;
      if (S.Why != Reason::MacroExpansion)
        continue;
      if (S.KeyText.empty())
        S.KeyText = expandedText(S.Key, Tokens, SM);
      S.Why = Reason::None;
    }
  }

  /// `do { ... } while (0)` around the statements: the wrapper, and its
  /// body's tokens [BodyBegin, BodyEnd) (only they are checked after); why
  /// the invocation is refused, or None.
  Reason checkWrapper(llvm::ArrayRef<syntax::Token> All,
                      const std::vector<size_t> &Members,
                      const DoStmt *&Wrapper, size_t &BodyBegin,
                      size_t &BodyEnd) {
    Wrapper = wrapperOf(Members);
    if (!Wrapper)
      return Reason::MacroNotStatements;
    auto DoToks = Tokens.expandedTokens(Wrapper->getSourceRange());
    auto BodyToks = Tokens.expandedTokens(Wrapper->getBody()->getSourceRange());
    if (indexIn(All, DoToks) != 0 || DoToks.size() != All.size() ||
        indexIn(All, BodyToks) != 1 || BodyToks.size() < 2)
      return Reason::MacroNotStatements;
    BodyBegin = 2;
    BodyEnd = BodyToks.size(); // the body's '}'
    for (size_t K = BodyBegin; K < BodyEnd; ++K)
      if (All[K].kind() == tok::kw_break || All[K].kind() == tok::kw_continue)
        return Reason::MacroDoWhile;
    if (!isConstantFalse(Wrapper->getCond()))
      return Reason::MacroDoWhile;
    return Reason::None;
  }

  /// Whether the tokens [BodyBegin, BodyEnd) of the expansion are whole
  /// atomic statements of \p Members separated by ';'; fills \p Where.
  bool coversStatements(llvm::ArrayRef<syntax::Token> All,
                        const std::vector<size_t> &Members, size_t BodyBegin,
                        size_t BodyEnd, std::vector<CallTokens> &Where) {
    std::vector<bool> Covered(All.size(), false);
    for (size_t I : Members) {
      const CallExpr *Call = Sites[I].Call;
      auto CallToks = Tokens.expandedTokens(Call->getSourceRange());
      auto CalleeToks =
          Tokens.expandedTokens(Call->getCallee()->getSourceRange());
      auto ArgToks = Tokens.expandedTokens(Call->getArg(0)->getSourceRange());
      long C = indexIn(All, CallToks), B = indexIn(All, CalleeToks),
           A = indexIn(All, ArgToks);
      if (C < 0 || B < 0 || A < 0)
        return false;
      for (size_t K = 0; K < CallToks.size(); ++K)
        Covered[C + K] = true;
      Where.push_back({B, B + (long)CalleeToks.size(), A});
    }
    for (size_t K = BodyBegin; K < BodyEnd; ++K)
      if (!Covered[K] && All[K].kind() != tok::semi)
        return false;
    return true;
  }

  /// The invocation's file range and expanded tokens, or null when the
  /// range is not in a file.
  std::shared_ptr<MacroInvocation>
  makeInvocation(CharSourceRange Inv, llvm::ArrayRef<syntax::Token> All,
                 const DoStmt *Wrapper) {
    auto Invocation = std::make_shared<MacroInvocation>();
    Invocation->Wrapper = Wrapper;
    Invocation->FileRange =
        Lexer::makeFileCharRange(Inv, SM, Ctx.getLangOpts());
    if (Invocation->FileRange.isInvalid())
      return nullptr;
    // Tokens spelled next to each other stay together, so the text reads
    // like the source (`&p.grad[i]`, not `& p . grad [ i ]`).
    for (size_t K = 0; K < All.size(); ++K) {
      std::string Text = All[K].text(SM).str();
      if (K && !spelledAdjacent(All[K - 1], All[K]))
        Text.insert(0, " ");
      Invocation->Tokens.push_back(std::move(Text));
    }
    llvm::StringRef Text =
        Lexer::getSourceText(Invocation->FileRange, SM, Ctx.getLangOpts());
    Invocation->Newlines = Text.count('\n');
    return Invocation;
  }

  /// The `do` statement whose body block directly holds the statement of
  /// every member, or null.
  const DoStmt *wrapperOf(const std::vector<size_t> &Members) {
    const DoStmt *Found = nullptr;
    for (size_t I : Members) {
      const AtomicSite &S = Sites[I];
      const DoStmt *Do = nullptr;
      for (size_t K = 0; K + 1 < S.Ancestors.size(); ++K) {
        const Stmt *A = S.Ancestors[K];
        if (isa<ExprWithCleanups, ParenExpr, CStyleCastExpr>(A))
          continue;
        Do = dyn_cast<DoStmt>(S.Ancestors[K + 1]);
        if (!isa<CompoundStmt>(A) || !Do || Do->getBody() != A)
          return nullptr;
        break;
      }
      if (!Do || (Found && Found != Do))
        return nullptr;
      Found = Do;
    }
    return Found;
  }

  /// A condition that is false for every instantiation: `0`, `false`.
  bool isConstantFalse(const Expr *Cond) {
    if (Cond->isValueDependent() || Cond->isTypeDependent())
      return false;
    std::optional<llvm::APSInt> V =
        Cond->IgnoreParenImpCasts()->getIntegerConstantExpr(Ctx);
    return V && V->isZero();
  }

  /// Whether \p A and \p B read well without a space between them: tokens
  /// spelled side by side, or a macro body token next to an argument token
  /// (`&buf[i]` with `buf` and `i` arguments) that cannot merge with it.
  bool spelledAdjacent(const syntax::Token &A, const syntax::Token &B) {
    auto IsWord = [](char C) { return llvm::isAlnum(C) || C == '_'; };
    llvm::StringRef TA = A.text(SM), TB = B.text(SM);
    if (TA == ",")
      return false;
    if (TA == "(" || TA == "[" || TB == ")" || TB == "]" || TB == "," ||
        TB == ";")
      return true;
    if (SM.isMacroArgExpansion(A.location()) !=
        SM.isMacroArgExpansion(B.location()))
      return !(IsWord(TA.back()) && IsWord(TB.front())) &&
             (IsWord(TA.back()) || IsWord(TB.front()) || TA == "(" ||
              TA == "[" || TB == ")" || TB == "]");
    auto [FileA, OffsetA] =
        SM.getDecomposedLoc(SM.getSpellingLoc(A.location()));
    auto [FileB, OffsetB] =
        SM.getDecomposedLoc(SM.getSpellingLoc(B.location()));
    return FileA == FileB && OffsetA + A.length() == OffsetB;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const syntax::TokenBuffer &Tokens;
  std::vector<AtomicSite> &Sites;
};

} // namespace

void resolveMacroSites(ASTContext &Ctx, const syntax::TokenBuffer &Tokens,
                       std::vector<AtomicSite> &Sites) {
  Resolver(Ctx, Tokens, Sites).run();
}

std::string
rewriteInvocation(const MacroInvocation &Inv,
                  const std::vector<AtomicSite> &Sites,
                  llvm::ArrayRef<size_t> Members,
                  llvm::function_ref<std::string(size_t)> Callee,
                  llvm::function_ref<std::string(size_t)> ArgPrefix) {
  std::string Out;
  for (size_t K = 0; K < Inv.Tokens.size(); ++K) {
    std::string Piece = Inv.Tokens[K];
    for (size_t I : Members) {
      const AtomicSite &S = Sites[I];
      if (S.CalleeBegin == K) {
        Piece = (Piece[0] == ' ' ? " " : "") + Callee(I);
        K = S.CalleeEnd - 1;
      } else if (S.FirstArgToken == K) {
        llvm::StringRef Text = llvm::StringRef(Piece).ltrim(' ');
        Piece = Piece.substr(0, Piece.size() - Text.size()) + ArgPrefix(I) +
                Text.str();
      }
    }
    Out += Piece;
  }
  Out.append(Inv.Newlines, '\n');
  return Out;
}

} // namespace distwar
