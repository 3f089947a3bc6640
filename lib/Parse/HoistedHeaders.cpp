//===- HoistedHeaders.cpp - CUDA headers moved into the PCH ---------------===//

#include "Parse/HoistedHeaders.h"
#include "Parse/LeadingIncludes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace clang;

namespace distwar {

namespace {

/// A directory of the CUDA SDK's headers (or of its CCCL part).
bool isCudaSdkDirectory(llvm::StringRef Dir, llvm::vfs::FileSystem &FS) {
  llvm::SmallString<256> Here(Dir), Above(Dir);
  llvm::sys::path::append(Here, "cuda_runtime.h");
  llvm::sys::path::append(Above, "..", "cuda_runtime.h");
  return FS.exists(Here) || FS.exists(Above);
}

/// Whether `<Name>` is found first in a CUDA SDK directory: user (-I)
/// directories are searched before the system ones.
bool isCudaSdkHeader(llvm::StringRef Name, const HeaderSearchOptions &Search,
                     llvm::vfs::FileSystem &FS) {
  for (bool System : {false, true})
    for (const HeaderSearchOptions::Entry &E : Search.UserEntries) {
      bool IsSystem = E.Group != frontend::Angled;
      if (E.IsFramework || E.Group == frontend::Quoted ||
          E.Group == frontend::After || IsSystem != System)
        continue;
      llvm::SmallString<256> Path(E.Path);
      llvm::sys::path::append(Path, Name);
      if (FS.exists(Path))
        return System && isCudaSdkDirectory(E.Path, FS);
    }
  return false;
}

} // namespace

std::vector<std::string> hoistableIncludes(llvm::StringRef Code,
                                           const HeaderSearchOptions &Search,
                                           llvm::vfs::FileSystem &FS) {
  std::vector<std::string> Out;
  int Braces = 0, Conditionals = 0;
  scanDirectives(
      Code,
      [&](const Token &Tok) {
        Braces += Tok.is(tok::l_brace) - Tok.is(tok::r_brace);
        return true;
      },
      [&](llvm::StringRef Name, llvm::StringRef Rest) {
        if (Name == "if" || Name == "ifdef" || Name == "ifndef")
          ++Conditionals;
        else if (Name == "endif")
          --Conditionals;
        else if (Name == "include" && Braces == 0 && Conditionals == 0)
          if (std::optional<IncludedName> H = includedName(Rest);
              H && H->Angled && !H->Name.empty() &&
              isCudaSdkHeader(H->Name, Search, FS) &&
              !llvm::is_contained(Out, H->Name))
            Out.push_back(H->Name.str());
        return true;
      });
  return Out;
}

std::string hoistedIncludeText(const Hoisting &H) {
  std::string Text;
  auto Define = H.Defines.begin();
  for (size_t I = 0; I < H.Headers.size(); ++I) {
    for (; Define != H.Defines.end() && Define->HeadersBefore == I; ++Define)
      Text += "#define" + Define->Rest + "\n";
    Text += "#include <" + H.Headers[I] + ">\n";
  }
  assert(Define == H.Defines.end() && "a replayed #define after the headers");
  return Text;
}

std::string spelledIdentifiers(llvm::ArrayRef<llvm::StringRef> Buffers) {
  std::set<std::string> Names;
  LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus17 = true;
  for (llvm::StringRef Code : Buffers) {
    Lexer Lex(SourceLocation(), Opts, Code.begin(), Code.begin(), Code.end());
    Token Tok;
    do {
      Lex.LexFromRawLexer(Tok);
      if (Tok.is(tok::raw_identifier))
        Names.insert(Tok.getRawIdentifier().str());
    } while (Tok.isNot(tok::eof));
  }
  std::string Out;
  for (const std::string &N : Names)
    Out += N + "\n";
  return Out;
}

HoistCheck::HoistCheck(
    Preprocessor &PP, const Hoisting &Hoisted,
    std::shared_ptr<const llvm::StringSet<>> Names,
    std::shared_ptr<const llvm::StringSet<>> Macros,
    std::shared_ptr<const std::vector<llvm::StringSet<>>> HeaderNames)
    : SM(PP.getSourceManager()), PP(PP), Hoisted(Hoisted),
      Names(std::move(Names)), Macros(std::move(Macros)),
      HeaderNames(std::move(HeaderNames)), IncludedAt(Hoisted.Headers.size()) {
  assert(this->Names && this->Macros && "a hoisting entry has both");
  for (const HoistedDefine &D : Hoisted.Defines) {
    bool Once = Replayed.insert(D.Name).second;
    assert(Once && "a replayed macro is defined once");
    (void)Once;
  }
}

size_t HoistCheck::definesBefore(size_t Header) const {
  return llvm::count_if(Hoisted.Defines, [&](const HoistedDefine &D) {
    return D.HeadersBefore <= Header;
  });
}

bool HoistCheck::headersSeen(size_t Count) const {
  return Seen == Count &&
         llvm::all_of(llvm::ArrayRef(IncludedAt).take_front(Count),
                      [](SourceLocation At) { return At.isValid(); });
}

void HoistCheck::InclusionDirective(SourceLocation Hash, const Token &,
                                    llvm::StringRef FileName, bool,
                                    CharSourceRange, OptionalFileEntryRef,
                                    llvm::StringRef, llvm::StringRef,
                                    const Module *, bool,
                                    SrcMgr::CharacteristicKind) {
  // Where the user's files include it: the main file, or a header of theirs
  // it includes first (LeadingIncludes.h).
  if (SM.isInSystemHeader(Hash))
    return;
  size_t Index =
      llvm::find(Hoisted.Headers, FileName) - Hoisted.Headers.begin();
  if (Index == Hoisted.Headers.size() || IncludedAt[Index].isValid())
    return; // not hoisted, or included before
  // The replayed #defines before it, and none after it, have been made.
  // Met in the order the precompiled header reads them, each header reads
  // first what HeaderNames says it does.
  InOrder &= Index == Seen;
  if (Matched != definesBefore(Index))
    Unsound = true;
  IncludedAt[Index] = Hash;
  // Precompiled, it must be skipped here (its include guard).
  ExpectSkip = true;
  if (++Seen == Hoisted.Headers.size())
    Last = Hash;
}

void HoistCheck::FileChanged(SourceLocation, FileChangeReason Reason,
                             SrcMgr::CharacteristicKind, FileID) {
  if (Reason == EnterFile && ExpectSkip)
    Unsound = true; // no include guard: its text is read again here
  ExpectSkip = false;
}

void HoistCheck::FileSkipped(const FileEntryRef &File, const Token &,
                             SrcMgr::CharacteristicKind) {
  ExpectSkip = false;
  if (Last.isInvalid())
    Reached.insert(File.getUniqueID());
}

bool HoistCheck::beforeLast(SourceLocation Loc) const {
  Loc = SM.getExpansionLoc(Loc);
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
      SM.isWrittenInBuiltinFile(Loc) || SM.isWrittenInCommandLineFile(Loc))
    return false;
  return Last.isInvalid() || SM.isBeforeInTranslationUnit(Loc, Last);
}

void HoistCheck::saw(llvm::StringRef Name) {
  if (Names->contains(Name))
    Unsound = true;
}

void HoistCheck::used(const Token &Name, const MacroDefinition &Definition) {
  if (Last.isValid() || !beforeLast(Name.getLocation()) ||
      !Macros->contains(Name.getIdentifierInfo()->getName()))
    return;
  // Defined as it would be where the user's code has included the header
  // that defines it (skipped here: it is in the precompiled header), or one
  // that includes that header. A replayed #define is defined here from the
  // start, there from where the user's code makes it.
  const MacroInfo *Info = Definition.getMacroInfo();
  if (!Info) {
    Unsound = true; // undefined here, maybe not there
    return;
  }
  SourceLocation Where = Info->getDefinitionLoc();
  if (!SM.isLoadedSourceLocation(Where))
    return; // defined by what this parse read, as in the other
  for (FileID F = SM.getFileID(Where); F.isValid();
       F = SM.getFileID(SM.getIncludeLoc(F)))
    if (OptionalFileEntryRef File = SM.getFileEntryRefForID(F);
        File && Reached.count(File->getUniqueID()))
      return;
  Unsound = true;
}

/// Whether \p MD, a definition of \p Name, is the next replayed #define:
/// the same text, after the same headers, over the precompiled one.
bool HoistCheck::replays(llvm::StringRef Name, const MacroDirective &MD) const {
  if (Matched == Hoisted.Defines.size())
    return false;
  const HoistedDefine &Next = Hoisted.Defines[Matched];
  const auto *Entry = dyn_cast_or_null<DefMacroDirective>(MD.getPrevious());
  const MacroInfo *Info = MD.getMacroInfo();
  return Next.Name == Name && headersSeen(Next.HeadersBefore) && Entry &&
         Info &&
         SM.isLoadedSourceLocation(Entry->getInfo()->getDefinitionLoc()) &&
         Info->isIdenticalTo(*Entry->getInfo(), PP, /*Syntactically=*/true);
}

void HoistCheck::MacroDefined(const Token &Name, const MacroDirective *MD) {
  if (Last.isValid() || !beforeLast(Name.getLocation()))
    return;
  llvm::StringRef Id = Name.getIdentifierInfo()->getName();
  if (!Replayed.contains(Id))
    return saw(Id);
  if (MD && replays(Id, *MD))
    ++Matched;
  else
    Unsound = true;
}

void HoistCheck::MacroUndefined(const Token &Name,
                                const MacroDefinition &Definition,
                                const MacroDirective *) {
  if (Last.isValid() || !beforeLast(Name.getLocation()))
    return;
  llvm::StringRef Id = Name.getIdentifierInfo()->getName();
  if (Replayed.contains(Id))
    Unsound = true; // the precompiled header defines it from here on
  // Undefined where nothing defines it, as the headers never do: the same
  // in either order.
  else if (Definition || Macros->contains(Id))
    saw(Id);
}

void HoistCheck::PragmaDirective(SourceLocation Loc, PragmaIntroducerKind) {
  if (Last.isValid() || !beforeLast(Loc))
    return;
  // Pragmas that change how later code parses (pack, a namespace's
  // visibility, ...) would reach the headers; these do not.
  bool Invalid = false;
  std::string Line = llvm::StringRef(SM.getCharacterData(Loc, &Invalid))
                         .split('\n')
                         .first.lower();
  size_t At = Line.find("pragma");
  if (Invalid || At == std::string::npos)
    return void(Unsound = true);
  llvm::StringRef Rest = llvm::StringRef(Line).drop_front(At + 6);
  Rest = Rest.drop_while([](char C) { return !isAsciiIdentifierStart(C); });
  for (llvm::StringRef Harmless :
       {"once", "unroll", "nounroll", "message", "warning", "region",
        "endregion", "diag_suppress", "nv_diag_suppress", "diag_default",
        "nv_diag_default", "gcc diagnostic", "clang diagnostic"})
    if (Rest.starts_with(Harmless))
      return;
  Unsound = true;
}

/// Whether a header's code that did not see the operator \p F might pick
/// another without an error: an operand that converts (an enum, a class with
/// a conversion function) meets a built-in operator, and a template's may be
/// anything.
static bool mayBeReplaced(const FunctionDecl &F) {
  return F.isTemplated() ||
         llvm::any_of(F.parameters(), [](const ParmVarDecl *P) {
           QualType T = P->getType().getNonReferenceType();
           const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
           return T->isEnumeralType() ||
                  (RD && RD->hasDefinition() &&
                   !RD->getVisibleConversionFunctions().empty());
         });
}

/// Whether a header that \p Spelled is spelled by could see \p D, a
/// declaration that has a name.
static bool seen(const NamedDecl &D, const llvm::StringSet<> &Spelled) {
  DeclarationName Name = D.getDeclName();
  const IdentifierInfo *Id = Name.getAsIdentifierInfo();
  switch (Name.getNameKind()) {
  case DeclarationName::CXXOperatorName:
    return D.getAsFunction() && mayBeReplaced(*D.getAsFunction());
  case DeclarationName::CXXLiteralOperatorName:
    Id = Name.getCXXLiteralIdentifier();
    break;
  case DeclarationName::CXXDeductionGuideName:
    Id = Name.getCXXDeductionGuideTemplate()->getIdentifier();
    break;
  default:
    break;
  }
  return Id && Spelled.contains(Id->getName());
}

/// Whether \p D, or what it holds (a namespace, a linkage block), declares a
/// name that \p Spelled holds or an operator the headers' code could pick,
/// or is a using-directive.
static bool reaches(const Decl *D, const llvm::StringSet<> &Spelled) {
  if (isa<UsingDirectiveDecl>(D))
    return true;
  if (const auto *ND = dyn_cast<NamedDecl>(D); ND && seen(*ND, Spelled))
    return true;
  if (const auto *DC = dyn_cast<DeclContext>(D);
      DC && isa<NamespaceDecl, LinkageSpecDecl>(D))
    return llvm::any_of(DC->decls(),
                        [&](const Decl *C) { return reaches(C, Spelled); });
  return false;
}

bool HoistCheck::encloses(const Decl &D, SourceLocation Loc) const {
  CharSourceRange Range = SM.getExpansionRange(D.getSourceRange());
  return Range.isValid() &&
         SM.isBeforeInTranslationUnit(Range.getBegin(), Loc) &&
         SM.isBeforeInTranslationUnit(Loc, Range.getEnd());
}

/// Whether a header included after \p D (before the last) spells a name
/// it declares: only what is read after a declaration can see it.
bool HoistCheck::seenByHeaderAfter(const Decl &D) const {
  if (!beforeLast(D.getLocation()))
    return false;
  if (!InOrder || !HeaderNames || HeaderNames->size() != IncludedAt.size())
    return reaches(&D, *Names);
  SourceLocation Loc = SM.getExpansionLoc(D.getLocation());
  for (size_t I = 0; I < IncludedAt.size(); ++I)
    if (SM.isBeforeInTranslationUnit(Loc, IncludedAt[I]) &&
        reaches(&D, (*HeaderNames)[I]))
      return true;
  return false;
}

bool HoistCheck::sound(llvm::ArrayRef<Decl *> Parsed) const {
  if (Unsound || Seen != Hoisted.Headers.size() ||
      Matched != Hoisted.Defines.size())
    return false;
  return llvm::none_of(Parsed, [&](const Decl *D) {
    // An #include inside a declaration (a namespace, an extern "C" block)
    // reads the header there, not at file scope.
    return seenByHeaderAfter(*D) ||
           llvm::any_of(IncludedAt,
                        [&](SourceLocation At) { return encloses(*D, At); });
  });
}

} // namespace distwar
