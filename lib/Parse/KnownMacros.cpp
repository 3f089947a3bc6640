//===- KnownMacros.cpp - #if conditions read without a preprocessor -------===//

#include "Parse/KnownMacros.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include <vector>

using namespace clang;

namespace distwar {

llvm::StringRef leadingIdentifier(llvm::StringRef Text) {
  return Text.ltrim().take_while(
      [](char C) { return clang::isAsciiIdentifierContinue(C); });
}

/// Names the implementation may define: `__x` and `_X`.
static bool isReserved(llvm::StringRef Name) {
  return Name.starts_with("__") ||
         (Name.size() > 1 && Name[0] == '_' && isUppercase(Name[1]));
}

KnownMacros::KnownMacros(const PreprocessorOptions &PP) {
  // Values not needed to tell the platform; the CUDA runtime's version,
  // which the CUDA headers define before the file's first line, is known to
  // be defined but not which.
  for (llvm::StringRef Name : {"__CUDACC__", "__CUDA__", "__clang__",
                               "__linux__", "__CUDA_ARCH__", "CUDART_VERSION"})
    Defined[Name] = std::nullopt;
  Unknown.insert("CUDA_VERSION");
  for (llvm::StringRef Name :
       {"_WIN32", "_WIN64", "_MSC_VER", "__APPLE__", "__NVCC__", "__HIPCC__",
        "__HIP__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__"})
    Undefined.insert(Name);
  for (const auto &[Text, IsUndef] : PP.Macros) {
    if (IsUndef) {
      undefine(Text);
      continue;
    }
    // -DNAME=VALUE; -DNAME is NAME 1.
    size_t Equals = Text.find('=');
    define(Equals == std::string::npos
               ? Text + " 1"
               : Text.substr(0, Equals) + " " + Text.substr(Equals + 1));
  }
}

void KnownMacros::define(llvm::StringRef Rest) {
  Rest = Rest.ltrim();
  llvm::StringRef Name = leadingIdentifier(Rest);
  if (Name.empty())
    return;
  llvm::StringRef After = Rest.drop_front(Name.size());
  Undefined.erase(Name);
  Unknown.erase(Name);
  if (After.starts_with("("))
    Defined[Name] = std::nullopt;
  else
    Defined[Name] = After.trim().str();
}

void KnownMacros::undefine(llvm::StringRef Rest) {
  llvm::StringRef Name = leadingIdentifier(Rest);
  Defined.erase(Name);
  Unknown.erase(Name);
  Undefined.insert(Name);
}

void KnownMacros::forget(llvm::StringRef Rest) {
  llvm::StringRef Name = leadingIdentifier(Rest);
  Defined.erase(Name);
  Undefined.erase(Name);
  Unknown.insert(Name);
}

std::optional<bool> KnownMacros::isDefined(llvm::StringRef Name) const {
  if (Unknown.contains(Name))
    return std::nullopt;
  if (Defined.contains(Name))
    return true;
  if (Undefined.contains(Name) || (!isReserved(Name) && !AfterLibraries))
    return false;
  return std::nullopt;
}

std::optional<std::string> KnownMacros::valueOf(llvm::StringRef Name) const {
  auto It = Defined.find(Name);
  return It == Defined.end() ? std::nullopt : It->second;
}

namespace {

using Value = std::optional<long long>;

/// The value of a condition's text: the operators of `defined`, `!`, `&&`,
/// `||`, comparisons and parentheses over integers and macros; nullopt for
/// anything else.
class Condition {
public:
  Condition(const KnownMacros &Macros, llvm::StringRef Text, unsigned Depth)
      : Macros(Macros), Depth(Depth) {
    std::string Buffer = Text.str(); // the lexer reads up to a NUL
    LangOptions Opts;
    Opts.CPlusPlus = Opts.CPlusPlus17 = true;
    Lexer Lex(SourceLocation(), Opts, Buffer.data(), Buffer.data(),
              Buffer.data() + Buffer.size());
    Token Tok;
    for (Lex.LexFromRawLexer(Tok); Tok.isNot(tok::eof);
         Lex.LexFromRawLexer(Tok))
      Tokens.push_back(
          {Tok.getKind(), std::string(Buffer.data() +
                                          Tok.getLocation().getRawEncoding(),
                                      Tok.getLength())});
  }

  Value value() {
    Value V = orExpr();
    return Bad || At != Tokens.size() ? std::nullopt : V;
  }

private:
  struct Piece {
    tok::TokenKind Kind;
    std::string Text;
  };

  bool next(tok::TokenKind K) {
    if (At < Tokens.size() && Tokens[At].Kind == K) {
      ++At;
      return true;
    }
    return false;
  }

  Value orExpr() {
    Value L = andExpr();
    while (next(tok::pipepipe)) {
      Value R = andExpr();
      L = (L && *L) || (R && *R) ? Value(1) : L && R ? Value(0) : std::nullopt;
    }
    return L;
  }

  Value andExpr() {
    Value L = comparison();
    while (next(tok::ampamp)) {
      Value R = comparison();
      L = (L && !*L) || (R && !*R) ? Value(0) : L && R ? Value(1) : std::nullopt;
    }
    return L;
  }

  Value comparison() {
    Value L = unary();
    for (;;) {
      if (At >= Tokens.size())
        return L;
      tok::TokenKind K = Tokens[At].Kind;
      if (K != tok::equalequal && K != tok::exclaimequal && K != tok::less &&
          K != tok::greater && K != tok::lessequal && K != tok::greaterequal)
        return L;
      ++At;
      Value R = unary();
      if (!L || !R) {
        L = std::nullopt;
        continue;
      }
      L = K == tok::equalequal     ? *L == *R
          : K == tok::exclaimequal ? *L != *R
          : K == tok::less         ? *L < *R
          : K == tok::greater      ? *L > *R
          : K == tok::lessequal    ? *L <= *R
                                   : *L >= *R;
    }
  }

  Value unary() {
    if (next(tok::exclaim)) {
      Value V = unary();
      return V ? Value(!*V) : std::nullopt;
    }
    if (next(tok::l_paren)) {
      Value V = orExpr();
      Bad |= !next(tok::r_paren);
      return V;
    }
    if (At >= Tokens.size())
      return Bad = true, std::nullopt;
    const Piece &P = Tokens[At++];
    if (P.Kind == tok::numeric_constant)
      return number(P.Text);
    if (P.Kind != tok::raw_identifier)
      return Bad = true, std::nullopt;
    if (P.Text == "defined")
      return defined();
    if (P.Text == "true" || P.Text == "false")
      return P.Text == "true";
    return macro(P.Text);
  }

  Value defined() {
    bool Paren = next(tok::l_paren);
    if (At >= Tokens.size() || Tokens[At].Kind != tok::raw_identifier)
      return Bad = true, std::nullopt;
    std::optional<bool> D = Macros.isDefined(Tokens[At++].Text);
    Bad |= Paren && !next(tok::r_paren);
    return D ? Value(*D) : std::nullopt;
  }

  Value macro(llvm::StringRef Name) {
    std::optional<bool> D = Macros.isDefined(Name);
    if (!D || !*D)
      return D ? Value(0) : std::nullopt;
    std::optional<std::string> Text = Macros.valueOf(Name);
    if (!Text || Text->empty() || Depth >= 8)
      return std::nullopt;
    return Condition(Macros, *Text, Depth + 1).value();
  }

  static Value number(llvm::StringRef Text) {
    Text = Text.rtrim("uUlL");
    long long V;
    if (Text.getAsInteger(0, V))
      return std::nullopt;
    return V;
  }

  const KnownMacros &Macros;
  unsigned Depth;
  std::vector<Piece> Tokens;
  size_t At = 0;
  bool Bad = false;
};

} // namespace

std::optional<bool> KnownMacros::holds(llvm::StringRef Name,
                                       llvm::StringRef Rest) const {
  if (Name == "if" || Name == "elif") {
    Value V = Condition(*this, Rest, 0).value();
    return V ? std::optional<bool>(*V != 0) : std::nullopt;
  }
  llvm::StringRef Macro = leadingIdentifier(Rest);
  std::optional<bool> D = isDefined(Macro);
  if (!D || Macro.empty())
    return std::nullopt;
  return Name.ends_with("ndef") ? !*D : *D;
}

} // namespace distwar
