//===- LineDirectives.cpp - #line directives of the formatted output ------===//

#include "Emit/LineDirectives.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include <cassert>
#include <optional>

using namespace clang;

namespace distwar {

namespace {

/// Where the first character of an output line comes from.
struct LineOrigin {
  /// Prepended: inserted in front of a line's first token (a loop's set-up,
  /// the prologue); it takes the numbers before that line's.
  enum Kind { Continued, Original, Inserted, Prepended } K = Continued;
  /// The user's line (Original), or where the text was inserted (Inserted).
  unsigned Offset = 0;
};

/// Maps increasing positions of a text to the text with \p R applied, for
/// positions that no replacement of \p R covers.
class Shifter {
public:
  explicit Shifter(const tooling::Replacements &R) : R(R), It(R.begin()) {}

  unsigned operator()(unsigned Pos) {
    for (; It != R.end() && It->getOffset() + It->getLength() <= Pos; ++It)
      Shift += int(It->getReplacementText().size()) - int(It->getLength());
    assert((It == R.end() || It->getOffset() > Pos ||
            It->getLength() == 0) &&
           "positions are outside every replaced range");
    return Pos + Shift;
  }

private:
  const tooling::Replacements &R;
  tooling::Replacements::const_iterator It;
  int Shift = 0;
};

constexpr llvm::StringLiteral Blanks = " \t\r\f\v";

/// The first character of the line at \p Pos that is not blank (nor the
/// byte-order mark that may start a file).
size_t firstChar(llvm::StringRef Text, size_t Pos) {
  if (Pos == 0 && Text.starts_with("\xEF\xBB\xBF"))
    Pos = 3;
  return Text.find_first_not_of(Blanks, Pos);
}

/// The output position of the first character of each line of the user's
/// that no edit replaced, and of every character the edits inserted.
llvm::DenseMap<unsigned, LineOrigin>
lineOrigins(llvm::StringRef Original, const tooling::Replacements &Edits,
            const tooling::Replacements &Layout) {
  llvm::DenseMap<unsigned, LineOrigin> Origins;
  Shifter ThroughEdits(Edits), ThroughLayout(Layout);
  auto Edit = Edits.begin();
  for (size_t Pos = 0; Pos < Original.size();) {
    size_t End = std::min(Original.find('\n', Pos), Original.size());
    size_t First = firstChar(Original, Pos);
    while (Edit != Edits.end() && Edit->getOffset() + Edit->getLength() <= First)
      ++Edit;
    bool Replaced = Edit != Edits.end() && Edit->getOffset() <= First;
    if (First < End && !Replaced)
      Origins[ThroughLayout(ThroughEdits(First))] = {LineOrigin::Original,
                                                    unsigned(First)};
    Pos = End + 1;
  }
  Shifter InsertedThroughLayout(Layout);
  int Delta = 0;
  for (const tooling::Replacement &R : Edits) {
    llvm::StringRef Text = R.getReplacementText();
    size_t LineStart =
        Original.take_front(R.getOffset()).find_last_of('\n') + 1;
    bool Prepended = R.getLength() == 0 &&
                     firstChar(Original, LineStart) >= R.getOffset();
    LineOrigin O{Prepended ? LineOrigin::Prepended : LineOrigin::Inserted,
                 R.getOffset()};
    for (size_t I = 0; I < Text.size(); ++I)
      if (!llvm::isSpace(Text[I]))
        Origins[InsertedThroughLayout(R.getOffset() + Delta + I)] = O;
    Delta += int(Text.size()) - int(R.getLength());
  }
  return Origins;
}

/// Whether the quote at \p I separates digits (`1'000`, `0xff'ff`).
bool isDigitSeparator(llvm::StringRef Text, size_t I) {
  size_t Start = I;
  while (Start > 0 && (llvm::isAlnum(Text[Start - 1]) || Text[Start - 1] == '\''))
    --Start;
  return Start < I && llvm::isDigit(Text[Start]) && I + 1 < Text.size() &&
         llvm::isHexDigit(Text[I + 1]);
}

/// For each line of a text, whether a directive may go in front of it:
/// outside parentheses and brackets (a directive cannot sit among a macro's
/// arguments), outside a comment, string or raw string that spans lines,
/// not on a line continued by a backslash, and between statements (after
/// `;`, a brace, a condition's `)`, a label, a directive, or a template
/// header on a line of its own), never inside an expression a line break
/// continues.
class DirectivePlaces {
public:
  explicit DirectivePlaces(llvm::StringRef Text) : Text(Text) {}

  std::vector<bool> scan() {
    for (size_t I = 0; I <= Text.size(); ++I) {
      if (I == 0 || Text[I - 1] == '\n')
        lineStart(I);
      if (I < Text.size())
        I += step(I);
    }
    return Places;
  }

private:
  enum State { Code, LineComment, BlockComment, String, RawString };

  void lineStart(size_t I) {
    Places.push_back(S == Code && Depth == 0 && !Continued &&
                     (llvm::is_contained(";{}):", Last) ||
                      (Last == '>' && templateHeaderBefore(I))));
    if (!Continued)
      InDirective = S == Code && Text.substr(I).ltrim(Blanks).starts_with("#");
    size_t End = std::min(Text.find('\n', I), Text.size());
    Continued = Text.slice(I, End).rtrim("\r").ends_with("\\");
  }

  /// Whether the line before the one at \p I is a template header of its
  /// own (`template <...>`), which a declaration follows.
  bool templateHeaderBefore(size_t I) const {
    if (I == 0)
      return false;
    llvm::StringRef Before = Text.take_front(I - 1);
    llvm::StringRef Prev = Before.substr(Before.rfind('\n') + 1).trim();
    return Prev.starts_with("template") && Prev.ends_with(">");
  }

  /// Reads the character at \p I; returns how many more it consumed.
  size_t step(size_t I) {
    char C = Text[I], Next = I + 1 < Text.size() ? Text[I + 1] : 0;
    if (S == Code && InDirective && C == '\n' && !Continued)
      Last = ';'; // a directive ends at its line's end
    else if (S == Code && !llvm::isSpace(C) &&
             !(C == '/' && (Next == '/' || Next == '*')))
      Last = C;
    switch (S) {
    case Code:
      return stepCode(I, C, Next);
    case LineComment:
      if (C == '\n' && !Continued)
        S = Code;
      return 0;
    case BlockComment:
      if (C == '*' && Next == '/')
        return S = Code, 1;
      return 0;
    case String:
      if (C == '\\')
        return 1;
      if (C == Quote || C == '\n')
        S = Code;
      return 0;
    case RawString:
      if (Text.substr(I).starts_with(RawEnd))
        return S = Code, RawEnd.size() - 1;
      return 0;
    }
    llvm_unreachable("every state is handled");
  }

  size_t stepCode(size_t I, char C, char Next) {
    if (C == '/' && Next == '/')
      S = LineComment;
    else if (C == '/' && Next == '*')
      return S = BlockComment, 1;
    else if (C == '"' && I > 0 && Text[I - 1] == 'R')
      S = RawString,
      RawEnd = ")" + Text.slice(I + 1, Text.find('(', I)).str() + "\"";
    else if (C == '"' || (C == '\'' && !isDigitSeparator(Text, I)))
      S = String, Quote = C;
    else if (!InDirective && (C == '(' || C == '['))
      ++Depth;
    else if (!InDirective && (C == ')' || C == ']'))
      Depth = std::max(0, Depth - 1);
    return 0;
  }

  llvm::StringRef Text;
  std::vector<bool> Places;
  State S = Code;
  int Depth = 0;
  bool InDirective = false, Continued = false;
  char Last = ';'; ///< the last character of code before this point
  char Quote = 0;
  std::string RawEnd;
};

/// The line number and quoted file name (may be empty) of a `#line N
/// "file"` or `# N "file"` line.
std::optional<std::pair<unsigned, llvm::StringRef>>
parseLineDirective(llvm::StringRef Line) {
  Line = Line.ltrim(Blanks);
  if (!Line.consume_front("#"))
    return std::nullopt;
  Line = Line.ltrim(Blanks);
  if (Line.consume_front("line"))
    Line = Line.ltrim(Blanks);
  unsigned Number = 0;
  if (Line.consumeInteger(10, Number))
    return std::nullopt;
  Line = Line.trim();
  size_t Close = Line.starts_with("\"") ? Line.find('"', 1) : 0;
  return std::make_pair(Number, Close ? Line.take_front(Close + 1) : "");
}

bool isConditional(llvm::StringRef Line) {
  Line = Line.ltrim(Blanks);
  if (!Line.consume_front("#"))
    return false;
  llvm::StringRef Word = Line.ltrim(Blanks).take_while(llvm::isAlpha);
  return Word.starts_with("if") || Word.starts_with("el") || Word == "endif";
}

/// Walks the output's lines, keeping the number the compiler presumes for
/// each, and places a directive where an anchored line's number drifted.
class DirectiveWriter {
public:
  DirectiveWriter(llvm::StringRef FilePath, llvm::StringRef Output,
                  llvm::DenseMap<unsigned, LineOrigin> Origins,
                  PresumedLineFn Presumed)
      : FilePath(FilePath), Output(Output), Origins(std::move(Origins)),
        Places(DirectivePlaces(Output).scan()), Presumed(Presumed) {}

  tooling::Replacements run() {
    size_t Index = 0;
    for (size_t Pos = 0; Pos < Output.size(); ++Index) {
      size_t End = std::min(Output.find('\n', Pos), Output.size());
      visit(Pos, End, Index);
      Pos = End + 1;
    }
    return Directives;
  }

private:
  void visit(size_t Pos, size_t End, size_t Index) {
    llvm::StringRef Text = Output.slice(Pos, End);
    size_t First = firstChar(Output, Pos);
    LineOrigin O = First < End ? Origins.lookup(First) : LineOrigin();
    bool Anchored = O.K == LineOrigin::Original ||
                    (O.K == LineOrigin::Inserted && !PrevInserted);
    if (Anchored && Places[Index])
      anchor(Pos, Presumed(O.Offset));
    if (First < End) {
      PrevInserted =
          O.K == LineOrigin::Inserted || O.K == LineOrigin::Prepended;
      Pragma.reset();
      if (Text.ltrim(Blanks).starts_with("#pragma") && Places[Index])
        Pragma = Pos;
    }
    advance(Text);
  }

  /// Gives the line at \p Pos the number \p P, if it drifted. A directive
  /// never separates a pragma from the statement it applies to: it goes in
  /// front of the pragma instead.
  void anchor(size_t Pos, const PresumedLine &P) {
    bool Renames = !P.QuotedFile.empty() && P.QuotedFile != File;
    if (Line == P.Line && !Renames)
      return;
    unsigned Number = P.Line;
    if (Pragma && P.Line > 1)
      Pos = *Pragma, --Number;
    std::string D = lineDirectiveText(Number, Renames ? P.QuotedFile : "");
    llvm::cantFail(
        Directives.add(tooling::Replacement(FilePath, Pos, 0, D + "\n")));
    Line = P.Line;
    if (Renames)
      File = P.QuotedFile;
    PlacedSinceConditional = true;
  }

  /// The number of the next line, after \p Text. A directive placed inside
  /// an #if's branch is skipped with the branch: after the next conditional
  /// directive, the number is not known.
  void advance(llvm::StringRef Text) {
    if (auto D = parseLineDirective(Text)) {
      Line = D->first;
      if (!D->second.empty())
        File = D->second.str();
    } else if (isConditional(Text) && PlacedSinceConditional) {
      Line = std::nullopt;
      PlacedSinceConditional = false;
    } else if (Line) {
      ++*Line;
    }
  }

  llvm::StringRef FilePath, Output;
  llvm::DenseMap<unsigned, LineOrigin> Origins;
  std::vector<bool> Places;
  PresumedLineFn Presumed;
  tooling::Replacements Directives;
  std::optional<unsigned> Line = 1; ///< the presumed number of this line
  std::string File;                 ///< as the last directive quoted it
  bool PrevInserted = false, PlacedSinceConditional = false;
  std::optional<size_t> Pragma; ///< the previous line, a #pragma
};

} // namespace

std::string lineDirectiveText(unsigned Line, llvm::StringRef QuotedFile) {
  std::string Text = "#line " + std::to_string(Line);
  return QuotedFile.empty() ? Text : Text + " " + QuotedFile.str();
}

tooling::Replacements lineDirectives(llvm::StringRef FilePath,
                                     llvm::StringRef Original,
                                     const tooling::Replacements &Edits,
                                     const tooling::Replacements &Layout,
                                     llvm::StringRef Output,
                                     PresumedLineFn Presumed) {
  return DirectiveWriter(FilePath, Output,
                         lineOrigins(Original, Edits, Layout), Presumed)
      .run();
}

} // namespace distwar
