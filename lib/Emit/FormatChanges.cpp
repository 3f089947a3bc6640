//===- FormatChanges.cpp - clang-format over the changed lines ------------===//

#include "Emit/FormatChanges.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Format/Format.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace distwar {

/// Turns off every clang-format option that changes tokens rather than the
/// space between them (braces, parentheses, qualifiers, literals, comments,
/// include order): the rewrite decides the tokens, the style only the
/// layout.
static void keepTokens(format::FormatStyle &Style) {
  using FS = format::FormatStyle;
  Style.InsertBraces = false;
  Style.RemoveBracesLLVM = false;
  Style.RemoveParentheses = FS::RPS_Leave;
  Style.RemoveSemicolon = false;
  Style.QualifierAlignment = FS::QAS_Leave;
  Style.ReflowComments = FS::RCS_Never;
  Style.BreakStringLiterals = false;
  Style.FixNamespaceComments = false;
  Style.SortIncludes.Enabled = false;
  Style.SortUsingDeclarations = FS::SUD_Never;
  Style.IntegerLiteralSeparator = {};
  Style.NumericLiteralCase = {};
  Style.InsertTrailingCommas = FS::TCS_None;
  Style.SeparateDefinitionBlocks = FS::SDS_Leave;
  Style.InsertNewlineAtEOF = false;
}

static bool isBlank(llvm::StringRef Text) {
  return llvm::all_of(Text, llvm::isSpace);
}

/// Whether \p R changes the space inside a preprocessor directive, past its
/// `#` and before its line ends: a directive's text stays as written
/// (`#pragma unroll f<C>` is not an expression to space out).
static bool insideDirective(llvm::StringRef Code, const tooling::Replacement &R) {
  llvm::StringRef Before = Code.take_front(R.getOffset());
  llvm::StringRef Line = Before.substr(Before.find_last_of('\n') + 1);
  return Line.ltrim(" \t").starts_with("#") &&
         !Code.substr(R.getOffset(), R.getLength()).contains('\n');
}

namespace {

/// The tokens of a text, as offsets, to tell space between tokens from a
/// place inside one: clang-format's own lexer may split what the compiler
/// reads as one token (`<< <` of a spaced launch into `< < <`).
class TokenMap {
public:
  explicit TokenMap(llvm::StringRef Code) : Code(Code) {
    SourceManagerForFile File("distwar-format.cu", Code);
    const SourceManager &SM = File.get();
    Lexer Lex(SM.getMainFileID(), SM.getBufferOrFake(SM.getMainFileID()), SM,
              langOptions());
    Lex.SetCommentRetentionState(true);
    Token Tok;
    for (Lex.LexFromRawLexer(Tok); Tok.isNot(tok::eof);
         Lex.LexFromRawLexer(Tok)) {
      unsigned Begin = SM.getFileOffset(Tok.getLocation());
      Spans.push_back({Begin, Begin + Tok.getLength()});
    }
  }

  /// Whether replacing [Offset, Offset + Length) with blanks (\p Joins:
  /// with nothing) leaves every token as it is.
  bool keepsTokens(unsigned Offset, unsigned Length, bool Joins) const {
    auto Next = llvm::lower_bound(Spans, Offset, [](const Span &S, unsigned O) {
      return S.End <= O;
    });
    if (Next != Spans.end() && Next->Begin < Offset)
      return false; // inside a token
    if (Next != Spans.end() && Next->Begin < Offset + Length)
      return false; // the range covers a token
    if (!Joins || Next == Spans.end() || Next == Spans.begin() ||
        std::prev(Next)->End != Offset || Next->Begin != Offset + Length)
      return true;
    // The two tokens would touch: they must still lex as two.
    llvm::StringRef Left = slice(*std::prev(Next)), Right = slice(*Next);
    std::string Joined = (Left + Right).str();
    TokenMap Together(Joined);
    return Together.Spans.size() == 2 && Together.Spans[0].End == Left.size();
  }

private:
  struct Span {
    unsigned Begin, End;
  };

  static LangOptions langOptions() {
    LangOptions LO;
    LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
    LO.CUDA = true;
    return LO;
  }

  llvm::StringRef slice(const Span &S) const {
    return Code.slice(S.Begin, S.End);
  }

  llvm::StringRef Code;
  std::vector<Span> Spans;
};

} // namespace

llvm::Expected<tooling::Replacements>
formatChanges(llvm::StringRef Code, llvm::ArrayRef<tooling::Range> Ranges,
              llvm::StringRef FilePath, llvm::StringRef StyleName,
              llvm::StringRef FallbackStyle) {
  llvm::Expected<format::FormatStyle> Style =
      format::getStyle(StyleName, FilePath, FallbackStyle, Code);
  if (!Style)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        FilePath + ": invalid --format-style '" + StyleName +
            "': " + llvm::toString(Style.takeError()));
  keepTokens(*Style);
  TokenMap Tokens(Code);
  tooling::Replacements Layout;
  // A replacement that the options above did not cover (a new option that
  // edits tokens) is dropped: that part of the text keeps the compact form.
  for (const tooling::Replacement &R :
       format::reformat(*Style, Code, Ranges, FilePath))
    if (isBlank(Code.substr(R.getOffset(), R.getLength())) &&
        isBlank(R.getReplacementText()) && !insideDirective(Code, R) &&
        Tokens.keepsTokens(R.getOffset(), R.getLength(),
                           R.getReplacementText().empty()))
      llvm::cantFail(Layout.add(R));
  return Layout;
}

} // namespace distwar
