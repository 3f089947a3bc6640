//===- NvccSpelling.cpp - what nvcc accepts, spelled for Clang ------------===//

#include "Parse/NvccSpelling.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cassert>
#include <functional>

using namespace clang;

namespace distwar {

namespace {

struct RawToken {
  tok::TokenKind Kind;
  unsigned Offset, Length;
  llvm::StringRef Text;
};

std::vector<RawToken> rawTokens(llvm::StringRef Code) {
  LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus11 = Opts.CPlusPlus17 = true;
  Opts.CUDA = true; // `<<<` and `>>>` are single tokens
  Lexer Lex(SourceLocation(), Opts, Code.begin(), Code.begin(), Code.end());
  std::vector<RawToken> Out;
  Token Tok;
  while (!Lex.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
    if (Tok.is(tok::eof))
      break;
    // A raw lexer's locations are offsets from the (null) file start.
    unsigned Offset = Tok.getLocation().getRawEncoding();
    Out.push_back({Tok.getKind(), Offset, Tok.getLength(),
                   Code.substr(Offset, Tok.getLength())});
  }
  return Out;
}

/// The text between two raw tokens: blanks and comments.
llvm::StringRef gapBetween(llvm::StringRef Code, const RawToken &A,
                           const RawToken &B) {
  return Code.slice(A.Offset + A.Length, B.Offset);
}

/// Whether the tokens at \p I spell three brackets apart as nvcc accepts
/// them: `<<` then `<` on the same line, or `>>` then `>` (blanks and
/// comments between). nvcc rejects `< <<` and `> >>`.
bool spacedTriple(llvm::StringRef Code, llvm::ArrayRef<RawToken> Toks, size_t I,
                  tok::TokenKind Two, tok::TokenKind One, bool SameLine) {
  return I + 1 < Toks.size() && Toks[I].Kind == Two &&
         Toks[I + 1].Kind == One &&
         !(SameLine && gapBetween(Code, Toks[I], Toks[I + 1]).contains('\n'));
}

/// The brackets of a spaced triple moved together, the gap after them: the
/// same length, and the next token keeps its offset.
SpellingFix joinTriple(llvm::StringRef Code, llvm::ArrayRef<RawToken> Toks,
                       size_t I, char Bracket) {
  llvm::StringRef Gap = gapBetween(Code, Toks[I], Toks[I + 1]);
  SpellingFix Fix{Toks[I].Offset,
                  Code.slice(Toks[I].Offset, Toks[I + 1].Offset + 1).str(),
                  std::string(3, Bracket) + Gap.str()};
  assert(Fix.Replacement.size() == Fix.Original.size() && "same length");
  return Fix;
}

bool isOpen(tok::TokenKind K) {
  return K == tok::l_paren || K == tok::l_square || K == tok::l_brace;
}
bool isClose(tok::TokenKind K) {
  return K == tok::r_paren || K == tok::r_square || K == tok::r_brace;
}

/// The index of the token that closes the bracket at \p I, or Toks.size().
size_t matching(llvm::ArrayRef<RawToken> Toks, size_t I) {
  int Depth = 0;
  for (size_t J = I; J < Toks.size(); ++J) {
    Depth += isOpen(Toks[J].Kind) ? 1 : isClose(Toks[J].Kind) ? -1 : 0;
    if (Depth == 0)
      return J;
  }
  return Toks.size();
}

/// Clang parses a launch configuration as a list of expressions: a braced
/// argument (a dim3 written `{16, 4, 4}`) becomes parenthesised (an empty
/// one `0`). The values do not matter, host launch code is never analysed.
void fixBracedArguments(llvm::ArrayRef<RawToken> Toks, size_t Begin, size_t End,
                        std::vector<SpellingFix> &Out) {
  bool ArgumentStart = true;
  for (size_t J = Begin; J < End; ++J) {
    if (ArgumentStart && Toks[J].Kind == tok::l_brace) {
      size_t Close = matching(Toks, J);
      if (Close >= End)
        return;
      if (Close == J + 1 && Toks[Close].Offset == Toks[J].Offset + 1) {
        Out.push_back({Toks[J].Offset, "{}", "0 "});
      } else {
        Out.push_back({Toks[J].Offset, "{", "("});
        Out.push_back({Toks[Close].Offset, "}", ")"});
      }
      J = Close;
      ArgumentStart = false;
      continue;
    }
    ArgumentStart = Toks[J].Kind == tok::comma;
    if (isOpen(Toks[J].Kind))
      J = matching(Toks, J);
  }
}

/// Kernel launches: `<<<` spelled apart, its closing `>>>` spelled apart,
/// braced arguments.
void fixLaunches(llvm::StringRef Code, llvm::ArrayRef<RawToken> Toks,
                 std::vector<SpellingFix> &Out) {
  for (size_t I = 0; I < Toks.size(); ++I) {
    bool Joined = Toks[I].Kind == tok::lesslessless;
    // `operator<< <>` names a specialization: not a launch.
    bool Spaced = !Joined && !(I > 0 && Toks[I - 1].Text == "operator") &&
                  spacedTriple(Code, Toks, I, tok::lessless, tok::less,
                               /*SameLine=*/true);
    if (!Joined && !Spaced)
      continue;
    size_t ArgsBegin = I + (Spaced ? 2 : 1);
    for (size_t J = ArgsBegin; J < Toks.size(); ++J) {
      if (Toks[J].Kind == tok::semi || isClose(Toks[J].Kind))
        break; // not a launch after all
      if (isOpen(Toks[J].Kind)) {
        J = matching(Toks, J);
        continue;
      }
      bool CloseSpaced = spacedTriple(Code, Toks, J, tok::greatergreater,
                                      tok::greater, /*SameLine=*/false);
      if (Toks[J].Kind != tok::greatergreatergreater && !CloseSpaced)
        continue;
      if (Spaced)
        Out.push_back(joinTriple(Code, Toks, I, '<'));
      if (CloseSpaced)
        Out.push_back(joinTriple(Code, Toks, J, '>'));
      fixBracedArguments(Toks, ArgsBegin, J, Out);
      I = J + (CloseSpaced ? 1 : 0);
      break;
    }
  }
}

/// `%` escapes Clang rejects in an asm string of \p Operands operands (nvcc
/// passes `%lanemask_lt`, `%r9` through to PTX): each `%x` becomes `%%`,
/// which Clang reads as a plain percent sign.
void fixAsmString(const RawToken &Str, unsigned Operands,
                  std::vector<SpellingFix> &Out) {
  llvm::StringRef S = Str.Text;
  size_t Quote = S.find('"');
  if (Quote == llvm::StringRef::npos || S.back() != '"')
    return;
  for (size_t I = Quote + 1; I + 1 < S.size(); ++I) {
    if (S[I] != '%')
      continue;
    char Next = S[I + 1];
    // What Clang reads as an escape or an operand (a bad operand number is
    // an error for nvcc too).
    if (llvm::StringRef("%{}|=[").contains(Next) || isDigit(Next)) {
      I += Next == '%';
      continue;
    }
    char After = I + 2 < S.size() ? S[I + 2] : '"';
    bool Modifier = isLetter(Next) && (After == '[' || isDigit(After));
    if (Modifier && (After == '[' || unsigned(After - '0') < Operands))
      continue;
    if (Next == '"')
      continue; // a lone `%` at the end: Clang's own error names it
    Out.push_back({Str.Offset + unsigned(I), S.substr(I, 2).str(), "%%"});
    ++I;
  }
}

/// Inline asm statements: `asm [volatile|goto|inline]* ( "..." : ...)`.
void fixAsm(llvm::ArrayRef<RawToken> Toks, std::vector<SpellingFix> &Out) {
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I].Text != "asm" && Toks[I].Text != "__asm__" &&
        Toks[I].Text != "__asm")
      continue;
    size_t J = I + 1;
    while (J < Toks.size() &&
           llvm::is_contained({"volatile", "__volatile__", "goto", "inline"},
                              Toks[J].Text))
      ++J;
    if (J >= Toks.size() || Toks[J].Kind != tok::l_paren)
      continue;
    size_t Close = matching(Toks, J);
    // Operands: the constraint strings of the output and input lists.
    unsigned Colons = 0, Operands = 0;
    std::vector<const RawToken *> Template;
    for (size_t K = J + 1; K < Close; ++K) {
      if (isOpen(Toks[K].Kind)) {
        K = matching(Toks, K);
        continue;
      }
      if (Toks[K].Kind == tok::colon)
        ++Colons;
      else if (Toks[K].Kind == tok::coloncolon)
        Colons += 2;
      else if (Toks[K].Kind == tok::string_literal)
        Colons == 0 ? Template.push_back(&Toks[K])
                    : void(Operands += Colons <= 2);
    }
    for (const RawToken *Str : Template)
      fixAsmString(*Str, Operands, Out);
    I = Close < Toks.size() ? Close : I;
  }
}

/// A cheap test on the characters before the lexer runs: most files (the
/// system headers) hold no launch and no `%` before two letters.
bool mayNeedFixes(llvm::StringRef Code) {
  if (Code.contains('\0'))
    return false; // not source: a precompiled header
  for (size_t I = Code.find_first_of("<%"); I != llvm::StringRef::npos;
       I = Code.find_first_of("<%", I + 1)) {
    llvm::StringRef Rest = Code.drop_front(I + 1);
    // `<<<` (braced arguments), `<< <`, `<</*...*/<`.
    if (Code[I] == '<' && Rest.size() > 1 && Rest[0] == '<' &&
        (Rest[1] == '<' || Rest[1] == '/' || isHorizontalWhitespace(Rest[1])))
      return true;
    if (Code[I] == '%' && Rest.size() > 1 && isLetter(Rest[0]) &&
        isLetter(Rest[1]))
      return true;
  }
  return false;
}

/// A file system file whose buffer is served with its fixes applied.
class FixedFile : public llvm::vfs::File {
public:
  FixedFile(std::unique_ptr<llvm::vfs::File> Base,
            std::function<void(llvm::StringRef, std::string)> Remember)
      : Base(std::move(Base)), Remember(Remember) {}

  llvm::ErrorOr<llvm::vfs::Status> status() override { return Base->status(); }
  llvm::ErrorOr<std::string> getName() override { return Base->getName(); }
  std::error_code close() override { return Base->close(); }

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
  getBuffer(const llvm::Twine &Name, int64_t FileSize,
            bool RequiresNullTerminator, bool IsVolatile) override {
    auto Buffer =
        Base->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (!Buffer)
      return Buffer;
    llvm::StringRef Code = (*Buffer)->getBuffer();
    if (!mayNeedFixes(Code))
      return Buffer;
    std::vector<SpellingFix> Fixes = findNvccSpellings(Code);
    if (Fixes.empty())
      return Buffer;
    std::string Fixed = applySpellingFixes(Code, Fixes);
    Remember(Name.str(), Code.str());
    return llvm::MemoryBuffer::getMemBufferCopy(Fixed, Name.str());
  }

private:
  std::unique_ptr<llvm::vfs::File> Base;
  std::function<void(llvm::StringRef, std::string)> Remember;
};

} // namespace

std::vector<SpellingFix> findNvccSpellings(llvm::StringRef Code) {
  std::vector<RawToken> Toks = rawTokens(Code);
  std::vector<SpellingFix> Fixes;
  fixLaunches(Code, Toks, Fixes);
  fixAsm(Toks, Fixes);
  llvm::sort(Fixes, [](const SpellingFix &A, const SpellingFix &B) {
    return A.Offset < B.Offset;
  });
  return Fixes;
}

std::string applySpellingFixes(llvm::StringRef Code,
                               llvm::ArrayRef<SpellingFix> Fixes) {
  std::string Out = Code.str();
  for (const SpellingFix &F : Fixes) {
    assert(F.Original.size() == F.Replacement.size() &&
           Code.substr(F.Offset, F.Original.size()) == F.Original &&
           "a fix keeps the length and matches the text");
    Out.replace(F.Offset, F.Replacement.size(), F.Replacement);
  }
  return Out;
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
NvccSpellingFileSystem::openFileForRead(const llvm::Twine &Path) {
  auto File = ProxyFileSystem::openFileForRead(Path);
  if (!File)
    return File;
  return std::unique_ptr<llvm::vfs::File>(std::make_unique<FixedFile>(
      std::move(*File), [this](llvm::StringRef Name, std::string Text) {
        std::lock_guard<std::mutex> Guard(Lock);
        Originals[Name] = std::move(Text);
      }));
}

std::optional<std::string>
NvccSpellingFileSystem::originalText(llvm::StringRef Path) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Originals.find(Path);
  if (It == Originals.end())
    return std::nullopt;
  return It->second;
}

} // namespace distwar
