//===- EditList.cpp - Text edits of one rewrite, per file -----------------===//

#include "Emit/EditList.h"
#include "Find/MacroSites.h"
#include "Parse/SourcePaths.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include <cassert>

using namespace clang;

namespace distwar {

std::string escapeString(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// \p Name as a #line directive's string literal.
static std::string quoted(llvm::StringRef Name) {
  return "\"" + escapeString(Name) + "\"";
}

bool EditList::editable(FileID File) const {
  return File == SM.getMainFileID() || (Headers && Headers->count(File));
}

bool EditList::beginsLine(SourceLocation Loc) const {
  if (!Loc.isFileID())
    return false;
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Before = SM.getBufferData(FID).take_front(Offset);
  return Before.substr(Before.find_last_of('\n') + 1).trim(" \t").empty();
}

void EditList::add(SourceLocation Loc, unsigned Length, std::string Text,
                   Rank R) {
  // A place inside a macro body has no offset in the file: refuse to write
  // rather than write at a wrong one.
  if (Loc.isInvalid() || !Loc.isFileID() || !editable(SM.getFileID(Loc))) {
    NotInFile = true;
    return;
  }
  Edits.push_back(
      {SM.getFileID(Loc), SM.getFileOffset(Loc), Length, std::move(Text), R});
}

void EditList::addAt(FileID File, unsigned Offset, unsigned Length,
                     std::string Text, Rank R) {
  assert(editable(File) && "edits stay in files that may be edited");
  Edits.push_back({File, Offset, Length, std::move(Text), R});
}

void EditList::replaceTokens(SourceLocation Begin, SourceLocation End,
                             std::string Text) {
  if (!editable(SM.getFileID(Begin))) {
    NotInFile = true;
    return;
  }
  unsigned Offset = SM.getFileOffset(Begin);
  unsigned EndOffset = SM.getFileOffset(
      Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts()));
  Edits.push_back({SM.getFileID(Begin), Offset, EndOffset - Offset,
                   std::move(Text), RankSlot});
}

void EditList::replaceKeepingLines(SourceLocation Begin, SourceLocation End,
                                   std::string Text) {
  if (!editable(SM.getFileID(Begin))) {
    NotInFile = true;
    return;
  }
  unsigned B = SM.getFileOffset(Begin), E = SM.getFileOffset(End);
  llvm::StringRef Old = SM.getBufferData(SM.getFileID(Begin)).slice(B, E);
  Text.append(Old.count('\n'), '\n');
  Edits.push_back({SM.getFileID(Begin), B, E - B, std::move(Text), RankSlot});
}

void EditList::replaceInvocations(
    const std::vector<AtomicSite> &Sites, llvm::ArrayRef<size_t> Members,
    llvm::function_ref<std::string(size_t)> Callee,
    llvm::function_ref<std::string(size_t)> Prefix) {
  std::map<const MacroInvocation *, std::vector<size_t>> ByInvocation;
  for (size_t I : Members)
    if (Sites[I].Invocation)
      ByInvocation[Sites[I].Invocation.get()].push_back(I);
  for (auto &[Inv, List] : ByInvocation) {
    if (!editable(SM.getFileID(Inv->FileRange.getBegin()))) {
      NotInFile = true;
      continue;
    }
    unsigned Begin = SM.getFileOffset(Inv->FileRange.getBegin());
    unsigned End = SM.getFileOffset(Inv->FileRange.getEnd());
    Edits.push_back({SM.getFileID(Inv->FileRange.getBegin()), Begin,
                     End - Begin,
                     rewriteInvocation(*Inv, Sites, List, Callee, Prefix),
                     RankSlot});
  }
}

bool EditList::isFree(FileID File, unsigned Offset, unsigned Length,
                      std::optional<Rank> Allowed) const {
  return llvm::none_of(Edits, [&](const Edit &E) {
    if (E.File != File || (!E.Length && Allowed && E.Order == *Allowed))
      return false;
    unsigned EEnd = E.Offset + E.Length;
    bool StartsInside = E.Offset >= Offset && E.Offset <= Offset + Length;
    bool Covers = E.Length && E.Offset < Offset + Length && EEnd > Offset;
    return StartsInside || Covers;
  });
}

std::vector<FileID> EditList::editedFiles() const {
  std::vector<FileID> Files;
  for (const Edit &E : Edits)
    if (!llvm::is_contained(Files, E.File))
      Files.push_back(E.File);
  llvm::stable_sort(Files, [&](FileID A, FileID B) {
    return A == SM.getMainFileID() && B != SM.getMainFileID();
  });
  return Files;
}

llvm::Expected<tooling::Replacements> EditList::finish(FileID FID) const {
  std::map<unsigned, std::vector<const Edit *>> ByOffset;
  // Insertions in front of a preprocessor directive go on lines of their
  // own before it, and a #line directive gives the directive its number
  // back.
  std::map<unsigned, std::string> LineRestored;
  for (const Edit &E : Edits) {
    if (E.File != FID)
      continue;
    unsigned Offset = E.Offset;
    if (std::optional<unsigned> LineStart = directiveLineStart(FID, Offset);
        LineStart && E.Length == 0) {
      LineRestored[*LineStart] = restoringDirective(FID, Offset);
      Offset = *LineStart;
    }
    ByOffset[Offset].push_back(&E);
  }
  tooling::Replacements Result;
  llvm::StringRef File = SM.getFileEntryRefForID(FID)->getName();
  for (auto &[Offset, List] : ByOffset) {
    llvm::stable_sort(List, [](const Edit *A, const Edit *B) {
      return A->Order < B->Order;
    });
    std::string Text;
    unsigned Length = 0;
    for (const Edit *E : List) {
      // A directive (the formatted form's #pragma) starts its own line.
      if (llvm::StringRef(E->Text).starts_with("#") && !Text.empty() &&
          Text.back() != '\n')
        Text += '\n';
      Text += E->Text;
      Length = std::max(Length, E->Length);
    }
    if (auto It = LineRestored.find(Offset); It != LineRestored.end())
      Text += Layout.compact() ? "\n" + It->second + "\n" : "\n";
    if (llvm::Error Err =
            Result.add(tooling::Replacement(File, Offset, Length, Text)))
      return std::move(Err);
  }
  return Result;
}

/// The start of the line of \p Offset when only blanks precede it there
/// and a preprocessor directive starts at it, else nullopt.
std::optional<unsigned> EditList::directiveLineStart(FileID FID,
                                                     unsigned Offset) const {
  llvm::StringRef Data = SM.getBufferData(FID);
  if (Offset >= Data.size() || Data[Offset] != '#')
    return std::nullopt;
  unsigned Start = Offset;
  while (Start > 0 && (Data[Start - 1] == ' ' || Data[Start - 1] == '\t'))
    --Start;
  if (Start > 0 && Data[Start - 1] != '\n')
    return std::nullopt;
  return Start;
}

PresumedLine presumedLine(const SourceManager &SM, FileID FID, unsigned Offset,
                          llvm::StringRef MainPath, LineFileNames Names) {
  PresumedLoc P =
      SM.getPresumedLoc(SM.getLocForStartOfFile(FID).getLocWithOffset(Offset));
  assert(P.isValid() && "a location in an edited file has a line");
  // The name the prologue's #line gave the file, unless the user's own
  // #line directives renamed it.
  std::string Name;
  if (P.getFilename() != SM.getFileEntryRefForID(FID)->getName())
    Name = P.getFilename();
  else if (Names == LineFileNames::Absolute)
    Name = FID == SM.getMainFileID() ? MainPath.str()
                                     : absoluteFilePath(SM, FID);
  return {P.getLine(), Name.empty() ? "" : quoted(Name)};
}

std::string EditList::lineDirective(FileID FID, unsigned Line) const {
  if (Layout.Names == LineFileNames::Omitted)
    return lineDirectiveText(Line, "");
  return lineDirectiveText(
      Line, quoted(FID == SM.getMainFileID() ? FilePath
                                             : absoluteFilePath(SM, FID)));
}

/// The #line directive that gives the line of \p Offset its number (and
/// name) in the user's file back.
std::string EditList::restoringDirective(FileID FID, unsigned Offset) const {
  PresumedLine P = presumedLine(SM, FID, Offset, FilePath, Layout.Names);
  return lineDirectiveText(P.Line, P.QuotedFile);
}

} // namespace distwar
