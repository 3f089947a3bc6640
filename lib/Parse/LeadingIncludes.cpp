//===- LeadingIncludes.cpp - the system headers a file starts with --------===//

#include "Parse/LeadingIncludes.h"
#include "Parse/KnownMacros.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace distwar {

/// Where the directive whose `#` is at \p Hash ends (its newline; escaped
/// newlines continue it).
static size_t directiveEnd(llvm::StringRef Code, size_t Hash) {
  size_t End = Code.find('\n', Hash);
  while (End != llvm::StringRef::npos && End > 0 && Code[End - 1] == '\\')
    End = Code.find('\n', End + 1);
  return End == llvm::StringRef::npos ? Code.size() : End;
}

/// Whether only blanks stand between the line's start and \p Offset.
static bool startsLine(llvm::StringRef Code, size_t Offset) {
  size_t LineStart = Code.rfind('\n', Offset);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  return Code.slice(LineStart, Offset).trim().empty();
}

void scanDirectives(
    llvm::StringRef Code, llvm::function_ref<bool(const Token &)> OnToken,
    llvm::function_ref<bool(llvm::StringRef, llvm::StringRef)> OnDirective) {
  LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus17 = true;
  size_t From = 0;
  while (From < Code.size()) {
    // Lexed anew after each directive: its text is not the file's tokens.
    Lexer Lex(SourceLocation(), Opts, Code.begin(), Code.begin() + From,
              Code.end());
    Token Tok;
    From = Code.size();
    for (Lex.LexFromRawLexer(Tok); Tok.isNot(tok::eof);
         Lex.LexFromRawLexer(Tok)) {
      size_t Offset = Tok.getLocation().getRawEncoding(); // from a null one
      if (!Tok.is(tok::hash) || !startsLine(Code, Offset)) {
        if (!OnToken(Tok))
          return;
        continue;
      }
      // The directive's line, read as text (the raw lexer does not know
      // header names).
      size_t End = directiveEnd(Code, Offset);
      llvm::StringRef Line = Code.slice(Offset + 1, End).ltrim();
      llvm::StringRef Name =
          Line.take_while([](char C) { return clang::isAsciiIdentifierContinue(C); });
      if (!OnDirective(Name, Line.drop_front(Name.size())))
        return;
      From = End;
      break;
    }
  }
}

std::optional<IncludedName> includedName(llvm::StringRef Rest) {
  Rest = Rest.trim();
  bool Angled = Rest.consume_front("<");
  if (!Angled && !Rest.consume_front("\""))
    return std::nullopt;
  size_t End = Rest.find(Angled ? '>' : '"');
  if (End == llvm::StringRef::npos)
    return std::nullopt;
  return IncludedName{Rest.take_front(End).trim(), Angled};
}

std::optional<FoundHeader> findHeader(llvm::StringRef Name, bool Angled,
                                      llvm::StringRef IncluderDir,
                                      const HeaderSearchOptions &Search,
                                      llvm::vfs::FileSystem &FS) {
  auto In = [&](llvm::StringRef Dir) -> std::optional<std::string> {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    if (!FS.exists(Path))
      return std::nullopt;
    return std::string(Path);
  };
  if (Name.empty())
    return std::nullopt;
  if (llvm::sys::path::is_absolute(Name))
    return FS.exists(Name) ? std::optional(FoundHeader{Name.str(), false})
                           : std::nullopt;
  if (!Angled)
    if (std::optional<std::string> Path = In(IncluderDir))
      return FoundHeader{std::move(*Path), false};
  auto Rank = [](frontend::IncludeDirGroup G) {
    return G == frontend::Quoted   ? 0
           : G == frontend::Angled ? 1
           : G == frontend::After  ? 3
                                   : 2;
  };
  for (int R = Angled ? 1 : 0; R <= 3; ++R)
    for (const HeaderSearchOptions::Entry &E : Search.UserEntries)
      if (!E.IsFramework && Rank(E.Group) == R)
        if (std::optional<std::string> Path = In(E.Path))
          return FoundHeader{std::move(*Path), R >= 2};
  return std::nullopt;
}

namespace {

/// How a file guards against being read twice, from the directives before
/// its first token (other conditionals and pragmas may come first, as in
/// torch's headers).
struct IncludeGuard {
  bool Once = false; ///< `#pragma once`
  std::string Macro; ///< the X of a leading `#ifndef X` `#define X`
  bool any() const { return Once || !Macro.empty(); }
};

IncludeGuard includeGuard(llvm::StringRef Code) {
  IncludeGuard Out;
  std::string Tested;
  unsigned Seen = 0;
  scanDirectives(
      Code, [](const Token &) { return false; },
      [&](llvm::StringRef Name, llvm::StringRef Rest) {
        Rest = Rest.trim();
        if (Name == "define" && Seen == 1 && !Tested.empty()) {
          if (leadingIdentifier(Rest) == Tested)
            Out.Macro = Tested;
        } else if (Name == "pragma") {
          Out.Once = Rest == "once";
        } else if (Name == "ifndef" && Seen == 0) {
          Tested = leadingIdentifier(Rest).str();
        } else if (!Name.starts_with("if")) {
          return false;
        }
        Seen += Name != "pragma";
        return !Out.any() && Seen < 8;
      });
  return Out;
}

/// Whether the file at \p Path is include-guarded.
bool isGuarded(llvm::StringRef Path, llvm::vfs::FileSystem &FS) {
  auto Buffer = FS.getBufferForFile(Path);
  return Buffer && includeGuard((*Buffer)->getBuffer()).any();
}

/// The walk of leadingSystemIncludes.
class LeadingWalk {
public:
  LeadingWalk(const HeaderSearchOptions &Search, const PreprocessorOptions &PP,
              llvm::vfs::FileSystem &FS)
      : Search(Search), FS(FS), Macros(PP) {}

  /// Reads \p Code, a file in \p Dir; false once the walk has ended.
  bool file(llvm::StringRef Code, llvm::StringRef Dir, unsigned Depth);

  std::vector<std::string> Found;
  /// A macro defined or undefined, in a block read or one whose condition
  /// the walk could not read.
  struct Change {
    std::string Name;
    size_t Before;    ///< the size Found had then
    std::string Rest; ///< a replayable #define's text after `define`
    bool Replayable;  ///< a #define read, of a name not tested before it
    bool OfUnset = false; ///< an #undef of a name not defined there
  };
  std::vector<Change> Changed;
  /// How many headers came before the first declaration, once met.
  std::optional<size_t> BeforeCode;

private:
  /// An open conditional block.
  struct Level {
    bool Taken = false;    ///< its current branch is
    bool AnyTaken = false; ///< it or an earlier branch is
    bool Unknown = false;  ///< the walk cannot tell: none of it is read
  };
  bool active() const {
    return llvm::all_of(Open, [](const Level &L) { return L.Taken; });
  }
  /// Whether the code here is skipped for a condition the walk could not
  /// read (not one it knows is false).
  bool unread() const {
    for (const Level &L : Open)
      if (!L.Taken)
        return L.Unknown;
    return false;
  }
  void code(const Token &Tok);
  bool directive(llvm::StringRef Name, llvm::StringRef Rest,
                 llvm::StringRef Dir, unsigned Depth);
  bool conditional(llvm::StringRef Name, llvm::StringRef Rest);
  bool include(llvm::StringRef Rest, llvm::StringRef Dir, unsigned Depth);

  const HeaderSearchOptions &Search;
  llvm::vfs::FileSystem &FS;
  KnownMacros Macros;
  std::vector<Level> Open;
  llvm::StringSet<> Visited;
  /// The names conditions and code spelled (an include guard's among
  /// them): made first, their #define would change what those read.
  llvm::StringSet<> Tested;
  /// Brackets of any kind open in the code read: an #include there is not
  /// at file scope.
  unsigned Nesting = 0;
};

/// Adds the identifiers of \p Text to \p Out.
void addIdentifiers(llvm::StringRef Text, llvm::StringSet<> &Out) {
  while (!Text.empty()) {
    Text = Text.drop_while(
        [](char C) { return !isAsciiIdentifierStart(C) && !isDigit(C); });
    llvm::StringRef Word =
        Text.take_while([](char C) { return isAsciiIdentifierContinue(C); });
    if (!Word.empty() && !isDigit(Word.front()))
      Out.insert(Word);
    Text = Text.drop_front(Word.size());
  }
}

/// Include depth beyond which the walk gives up (Clang's own limit is 200).
constexpr unsigned MaxDepth = 32;

bool LeadingWalk::file(llvm::StringRef Code, llvm::StringRef Dir,
                       unsigned Depth) {
  size_t Outer = Open.size();
  bool Going = true;
  scanDirectives(
      Code, [&](const Token &Tok) { return code(Tok), true; },
      [&](llvm::StringRef Name, llvm::StringRef Rest) {
        return Going = directive(Name, Rest, Dir, Depth);
      });
  // A file's conditionals end in it.
  Going &= Open.size() == Outer;
  Open.resize(std::min(Open.size(), Outer));
  return Going;
}

void LeadingWalk::code(const Token &Tok) {
  if (!active())
    return;
  if (!BeforeCode)
    BeforeCode = Found.size();
  if (Tok.is(tok::raw_identifier))
    Tested.insert(Tok.getRawIdentifier());
  else if (Tok.isOneOf(tok::l_brace, tok::l_paren, tok::l_square))
    ++Nesting;
  else if (Tok.isOneOf(tok::r_brace, tok::r_paren, tok::r_square) && Nesting)
    --Nesting;
}

bool LeadingWalk::directive(llvm::StringRef Name, llvm::StringRef Rest,
                            llvm::StringRef Dir, unsigned Depth) {
  if (Name.starts_with("if") || Name.starts_with("el") || Name == "endif") {
    addIdentifiers(Rest, Tested);
    return conditional(Name, Rest);
  }
  bool Defines = Name == "define", Changes = Defines || Name == "undef";
  // A block the walk knows is not taken includes and defines nothing.
  bool Read = active();
  if (!Read && !unread())
    return true;
  // What a block it cannot read includes may come first: the order of what
  // follows is not known.
  if (!Read && Name.starts_with("include"))
    return false;
  if (Changes) {
    llvm::StringRef Id = leadingIdentifier(Rest);
    bool Replayable = Read && Defines && !Tested.contains(Id);
    Changed.push_back({Id.str(), Found.size(), Replayable ? Rest.str() : "",
                       Replayable, !Defines && Macros.isDefined(Id) != true});
  }
  if (!Read) {
    // What it defines there is no longer known.
    if (Changes)
      Macros.forget(Rest);
    return true;
  }
  if (Name == "define")
    Macros.define(Rest);
  else if (Name == "undef")
    Macros.undefine(Rest);
  else if (Name == "include" || Name == "import")
    return include(Rest, Dir, Depth);
  else if (Name == "include_next")
    return false;
  return true;
}

bool LeadingWalk::conditional(llvm::StringRef Name, llvm::StringRef Rest) {
  if (Name.starts_with("if")) {
    std::optional<bool> Holds =
        active() ? Macros.holds(Name, Rest) : std::nullopt;
    Open.push_back(Holds ? Level{*Holds, *Holds, false} : Level{false, true, true});
    return true;
  }
  if (Open.empty())
    return false;
  if (Name == "endif") {
    Open.pop_back();
    return true;
  }
  Level &L = Open.back();
  if (L.Unknown || L.AnyTaken) {
    L.Taken = false;
    return true;
  }
  std::optional<bool> Holds =
      Name == "else" ? std::optional(true) : Macros.holds(Name, Rest);
  if (!Holds)
    L = Level{false, true, true};
  else
    L.Taken = L.AnyTaken = *Holds;
  return true;
}

bool LeadingWalk::include(llvm::StringRef Rest, llvm::StringRef Dir,
                          unsigned Depth) {
  std::optional<IncludedName> Included = includedName(Rest);
  // A computed name, or text included into a declaration (a namespace, an
  // initializer): the walk ends.
  if (!Included || Nesting)
    return false;
  llvm::StringRef Name = Included->Name;
  std::optional<FoundHeader> Header =
      findHeader(Name, Included->Angled, Dir, Search, FS);
  if (!Header)
    return false;
  if (Header->InSystemDirectory) {
    // One read again at each #include (<cassert>) stays where it is.
    if (!llvm::is_contained(Found, Name) && isGuarded(Header->Path, FS)) {
      Found.push_back(Name.str());
      Macros.libraryRead();
    }
    return true;
  }
  if (Depth >= MaxDepth)
    return false;
  // Read once: a header included again is guarded, or its leading
  // directives were already met.
  if (!Visited.insert(Header->Path).second)
    return true;
  auto Buffer = FS.getBufferForFile(Header->Path);
  if (!Buffer)
    return false;
  // Its include guard is not a library's macro.
  if (std::string Guard = includeGuard((*Buffer)->getBuffer()).Macro;
      !Guard.empty() && !Macros.isDefined(Guard))
    Macros.undefine(Guard);
  return file((*Buffer)->getBuffer(), llvm::sys::path::parent_path(Header->Path),
              Depth + 1);
}

} // namespace

/// What a precompiled header may hold for the first \p Headers of \p Walk's
/// headers: the #defines before the last of them that it can make where
/// they are made, and the names of the other macros changed there.
static HoistingChoice hoistingOf(const LeadingWalk &Walk, size_t Headers) {
  llvm::StringMap<unsigned> Times, Unsets;
  for (const LeadingWalk::Change &C : Walk.Changed) {
    Times[C.Name] += C.Before < Headers;
    Unsets[C.Name] += C.Before < Headers && C.OfUnset;
  }
  HoistingChoice Out;
  for (const LeadingWalk::Change &C : Walk.Changed) {
    if (C.Before >= Headers)
      continue;
    if (C.Replayable && Times[C.Name] == 1)
      Out.Hoisted.Defines.push_back({C.Name, C.Rest, C.Before});
    else if (Unsets[C.Name] == Times[C.Name])
      Out.UnsetBefore.push_back(C.Name);
    else
      Out.MacrosBefore.push_back(C.Name);
  }
  Out.Hoisted.Headers.assign(Walk.Found.begin(), Walk.Found.begin() + Headers);
  return Out;
}

std::vector<HoistingChoice>
leadingSystemIncludes(llvm::StringRef MainPath, llvm::StringRef Code,
                      const HeaderSearchOptions &Search,
                      const PreprocessorOptions &PP,
                      llvm::vfs::FileSystem &FS) {
  LeadingWalk Walk(Search, PP, FS);
  Walk.file(Code, llvm::sys::path::parent_path(MainPath), 0);
  std::vector<HoistingChoice> Out{hoistingOf(Walk, Walk.Found.size())};
  if (Walk.BeforeCode && *Walk.BeforeCode &&
      *Walk.BeforeCode < Walk.Found.size())
    Out.push_back(hoistingOf(Walk, *Walk.BeforeCode));
  return Out;
}

} // namespace distwar
