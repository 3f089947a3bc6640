//===- Rewriter.cpp - one file in, rewritten text and report out ----------===//

#include "distwar-rewrite/Rewriter.h"
#include "Analysis/Effects.h"
#include "Decide/Editability.h"
#include "Decide/GroupSafety.h"
#include "Decide/ReducedCode.h"
#include "Decide/VariantChoice.h"
#include "Emit/EditList.h"
#include "Emit/LaunchTuning.h"
#include "Emit/OutputText.h"
#include "Find/AtomicSites.h"
#include "Find/MacroSites.h"
#include "Find/OptOut.h"
#include "Group/ContinueSplit.h"
#include "Group/Grouping.h"
#include "Parse/ParsedFile.h"
#include "Parse/SourcePaths.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace clang;

namespace distwar {

bool looksRewritten(llvm::StringRef Code) {
  // Tokens, not text: comments that mention the runtime do not count.
  LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus17 = true;
  Lexer Lex(SourceLocation(), Opts, Code.begin(), Code.begin(), Code.end());
  Token Tok;
  llvm::SmallVector<Token, 3> Last;
  auto RawName = [](const Token &T) {
    return T.is(tok::raw_identifier) ? T.getRawIdentifier() : "";
  };
  while (!Lex.LexFromRawLexer(Tok)) {
    llvm::StringRef Name = RawName(Tok);
    if (Name.starts_with("DISTWAR_SITES") || Name.starts_with("distwar_batch"))
      return true;
    // ::distwar::reduce*, ::distwar::floorAdd, <distwar/runtime.cuh>
    if (Last.size() == 2 && RawName(Last[0]) == "distwar" &&
        ((Last[1].is(tok::coloncolon) &&
          (Name.starts_with("reduce") || Name == "floorAdd")) ||
         (Last[1].is(tok::slash) && Name == "runtime")))
      return true;
    Last.push_back(Tok);
    if (Last.size() > 2)
      Last.erase(Last.begin());
  }
  return false;
}

static FileReport buildReport(llvm::StringRef FilePath,
                              const std::vector<AtomicSite> &Sites,
                              const std::vector<SiteGroup> &Groups,
                              const PlannedEdits &Plan, Variant V,
                              const std::vector<VariantDecision> &Decisions) {
  FileReport R;
  R.File = FilePath.str();
  R.Changed = !Plan.Edits.empty();
  std::vector<int> GroupOf(Sites.size(), -1);
  for (size_t G = 0; G < Groups.size(); ++G)
    for (size_t I : Groups[G].Sites)
      GroupOf[I] = G;
  for (size_t I = 0; I < Sites.size(); ++I) {
    const AtomicSite &S = Sites[I];
    SiteRecord Rec;
    Rec.Line = S.Line;
    Rec.Column = S.Column;
    Rec.Function = S.FunctionName;
    Rec.Callee = S.Callee;
    Rec.Buffer = S.Buffer ? S.Buffer->getName().str() : "";
    Rec.Key = S.KeyText;
    Rec.Field = S.FieldText;
    Rec.Slot = Plan.SlotTexts[I];
    Rec.Type = S.TypeText;
    Rec.Why = S.Why;
    Rec.File = S.File;
    Rec.Decision = "unchanged";
    if (V == Variant::Floor && R.Changed && S.IsDeviceAdd &&
        S.Why != Reason::UsedResult)
      Rec.Decision = "floor";
    if (GroupOf[I] >= 0) {
      const SiteGroup &G = Groups[GroupOf[I]];
      Rec.Group = G.Name.empty() ? S.FunctionName + "@" +
                                       std::to_string(Sites[G.Sites[0]].Line)
                                 : G.Name;
      if (V != Variant::Floor) {
        Rec.Why = G.Why;
        Rec.Decision = G.Why == Reason::None ? "batched" : "unchanged";
      }
    }
    R.Sites.push_back(std::move(Rec));
  }
  if (V == Variant::Floor)
    return R;
  for (size_t G = 0; G < Groups.size(); ++G) {
    const SiteGroup &Group = Groups[G];
    const AtomicSite &First = Sites[Group.Sites.front()];
    GroupRecord Rec;
    Rec.Name = R.Sites[Group.Sites.front()].Group;
    Rec.Function = First.FunctionName;
    Rec.Key = First.KeyText;
    Rec.Type = First.TypeText;
    Rec.Size = Plan.SizeTexts[G];
    Rec.Sites.assign(Group.Sites.begin(), Group.Sites.end());
    Rec.Why = Group.Why;
    Rec.Decision = Group.Why == Reason::None ? "batched" : "unchanged";
    Rec.SharesMatchWith = Group.SharesMatchWith;
    Rec.ReducedWith = Group.ReducedWith;
    Rec.Strip = Group.Strip;
    if (Group.Why == Reason::None) {
      Rec.Variant = Group.Block            ? "block"
                    : G < Decisions.size() ? variantName(Decisions[G].Kind)
                                           : "serial";
      if (G < Decisions.size()) {
        Rec.Note = Decisions[G].Note;
        Rec.BlockNote = Decisions[G].BlockNote;
        Rec.StartNote = Decisions[G].StartNote;
      }
    }
    R.Groups.push_back(std::move(Rec));
  }
  return R;
}

/// Decides, per included file, whether its device functions may be edited,
/// and remembers the ones that may.
class HeaderPolicyTable {
public:
  HeaderPolicyTable(const SourceManager &SM, const HeaderFilter *Filter)
      : SM(SM), Filter(Filter) {
    for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
      const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
      if (E.isFile())
        if (OptionalFileEntryRef FE = E.getFile().getContentCache().OrigEntry)
          ++Entered[&FE->getFileEntry()];
    }
  }

  Reason operator()(FileID File) {
    if (auto It = Decided.find(File); It != Decided.end())
      return It->second;
    return Decided[File] = decide(File);
  }

  EditableHeaders Editable;

private:
  Reason decide(FileID File) {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(File);
    if (!FE || !Filter)
      return Reason::HeaderNotEditable;
    std::optional<std::string> Rel =
        Filter->relativePath(absoluteFilePath(SM, File));
    if (!Rel)
      return Reason::HeaderNotEditable;
    if (Entered[&FE->getFileEntry()] > 1)
      return Reason::HeaderEnteredTwice;
    if (looksRewritten(SM.getBufferData(File)))
      return Reason::AlreadyRewritten;
    Editable[File] = *Rel;
    return Reason::None;
  }

  const SourceManager &SM;
  const HeaderFilter *Filter;
  llvm::DenseMap<const FileEntry *, unsigned> Entered;
  std::map<FileID, Reason> Decided;
};

/// Every other allowed file the parse read, as it is.
static void
addUneditedHeaders(const SourceManager &SM, const HeaderFilter &Filter,
                   const std::function<llvm::StringRef(FileID)> &OriginalText,
                   std::vector<HeaderOutput> &Out) {
  llvm::DenseSet<const FileEntry *> Seen;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const SrcMgr::ContentCache &C = E.getFile().getContentCache();
    OptionalFileEntryRef FE = C.OrigEntry;
    if (!FE || !Seen.insert(&FE->getFileEntry()).second ||
        &FE->getFileEntry() ==
            &SM.getFileEntryRefForID(SM.getMainFileID())->getFileEntry() ||
        E.getFile().getFileCharacteristic() != SrcMgr::C_User)
      continue;
    std::string Path = absoluteFilePath(SM.getFileManager(), *FE);
    if (llvm::any_of(Out,
                     [&](const HeaderOutput &H) { return H.Path == Path; }))
      continue;
    std::optional<std::string> Rel = Filter.relativePath(Path);
    if (!Rel || !C.getBufferOrNone(SM.getDiagnostics(), SM.getFileManager()))
      continue;
    HeaderOutput H;
    H.Path = Path;
    H.RelativePath = *Rel;
    H.Output = OriginalText(SM.translateFile(*FE)).str();
    Out.push_back(std::move(H));
  }
}

/// The result of a full parse of a file whose tokens name nothing atomic:
/// no sites, nothing changed. Null when the file needs the parse.
static llvm::Expected<std::optional<RewriteResult>>
withoutParse(llvm::StringRef FilePath, llvm::StringRef Code,
             const FrontEnd &Front) {
  if (mentionsAtomics(Code))
    return std::nullopt;
  llvm::Expected<TokenScan> Scan = scanTokens(FilePath, Code, Front);
  if (!Scan)
    return Scan.takeError();
  if (Scan->MayHaveAtomics)
    return std::nullopt;
  RewriteResult Result;
  Result.Output = Code.str();
  Result.FilesRead = std::move(Scan->FilesRead);
  Result.Report.File = FilePath.str();
  return Result;
}

/// Our own output: report what is there, change nothing, even when the
/// runtime header is not on the include path.
static void reportOwnOutput(ParsedFile &P, llvm::StringRef FilePath,
                            Variant V, RewriteResult &Result) {
  if (!P.HasErrors) {
    std::vector<AtomicSite> Sites = findAtomicSites(P.Ctx);
    for (AtomicSite &S : Sites)
      S.Why = Reason::AlreadyRewritten;
    std::vector<SiteGroup> NoGroups;
    PlannedEdits Nothing;
    Nothing.SlotTexts.resize(Sites.size());
    Result.Report = buildReport(FilePath, Sites, NoGroups, Nothing, V, {});
  }
  Result.Report.File = FilePath.str();
  Result.Report.FileReason = Reason::AlreadyRewritten;
}

/// \p File of \p P (the main file, named \p FilePath, or a header) with
/// \p Edits applied, laid out as \p Layout says.
static llvm::Expected<OutputText>
outputText(ParsedFile &P, FileID File, llvm::StringRef FilePath,
           const tooling::Replacements &Edits, const OutputLayout &Layout) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  std::string Path =
      File == SM.getMainFileID() ? FilePath.str() : absoluteFilePath(SM, File);
  return layOutEdits(Path, P.OriginalText(File), Edits, Layout,
                     [&](unsigned Offset) {
                       return presumedLine(SM, File, Offset, FilePath,
                                           Layout.Names);
                     });
}

/// Header \p File of \p P with \p Edits applied, and how it was included.
static llvm::Expected<HeaderOutput>
editedHeader(ParsedFile &P, const HeaderPolicyTable &Policy, FileID File,
             const tooling::Replacements &Edits,
             const std::vector<AtomicSite> &Sites, const OutputLayout &Layout) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  llvm::Expected<OutputText> Text = outputText(P, File, "", Edits, Layout);
  if (!Text)
    return Text.takeError();
  HeaderOutput H;
  H.Edited = true;
  H.Path = absoluteFilePath(SM, File);
  H.RelativePath = Policy.Editable.at(File);
  for (const Inclusion &I : P.Inclusions)
    if (I.File == &SM.getFileEntryRefForID(File)->getFileEntry())
      H.IncludedAs.push_back(I);
  H.Output = std::move(Text->Text);
  H.Edits = std::move(Text->Edits);
  for (const AtomicSite &S : Sites)
    if (!H.FirstLine && !S.File.empty() &&
        SM.getFileID(SM.getExpansionLoc(S.Call->getBeginLoc())) == File)
      H.FirstLine = S.Line;
  return H;
}

/// The pipeline on a parsed file: find the sites, group them, decide each
/// group's variant, plan and apply the edits. Returns why it failed, or "".
static std::string rewriteParsed(ParsedFile &P, llvm::StringRef FilePath,
                                 llvm::StringRef Code, Variant V,
                                 const HeaderFilter *Headers,
                                 const OutputLayout &Layout,
                                 RewriteResult &Result) {
  ASTContext &Ctx = P.Ctx;
  EffectsScope Effects;
  const SourceManager &SM = Ctx.getSourceManager();
  HeaderPolicyTable Policy(SM, Headers);
  std::vector<AtomicSite> Sites = findAtomicSites(Ctx, Policy);
  resolveMacroSites(Ctx, P.Tokens, Sites);
  markAlreadyReduced(Sites);
  markOptedOut(Ctx, Sites);
  std::vector<SiteGroup> Groups = groupSites(Ctx, Sites);
  std::vector<VariantDecision> Decisions;
  if (V != Variant::Floor) {
    splitAtContinues(Sites, Groups);
    Decisions = chooseVariants(Ctx, Sites, Groups, V);
    checkEditability(Ctx, Sites, Groups, Decisions);
  }
  PlannedEdits Plan =
      planEdits(Ctx, Sites, Groups, V, FilePath,
                V == Variant::Floor ? nullptr : &Decisions, &Policy.Editable,
                Layout);
  if (!Plan.Error.empty())
    return FilePath.str() + ": internal error: " + Plan.Error;
  if (V != Variant::Floor)
    if (llvm::Error E = planLaunchTuning(Ctx, Groups, FilePath,
                                         Policy.Editable, Plan.Edits)
                            .takeError())
      return FilePath.str() + ": internal error: " + toString(std::move(E));
  llvm::Expected<OutputText> Output = outputText(
      P, Ctx.getSourceManager().getMainFileID(), FilePath, Plan.Edits, Layout);
  if (!Output)
    return llvm::toString(Output.takeError());
  Result.Output = std::move(Output->Text);
  Result.Edits = std::move(Output->Edits);
  for (const auto &[File, Edits] : Plan.HeaderEdits) {
    llvm::Expected<HeaderOutput> H =
        editedHeader(P, Policy, File, Edits, Sites, Layout);
    if (!H)
      return llvm::toString(H.takeError());
    Result.Headers.push_back(std::move(*H)); // FileIDs grow in entry order
  }
  if (Headers && !Result.Headers.empty())
    addUneditedHeaders(SM, *Headers, P.OriginalText, Result.Headers);
  Result.Report = buildReport(FilePath, Sites, Groups, Plan, V, Decisions);
  for (const HeaderOutput &H : Result.Headers)
    if (H.Edited)
      Result.Report.EditedHeaders.push_back(H.Path);
  return "";
}

llvm::Expected<RewriteResult> rewriteSource(llvm::StringRef FilePath,
                                            llvm::StringRef Code,
                                            const FrontEnd &Front, Variant V,
                                            const HeaderFilter *Headers,
                                            const OutputLayout &Layout) {
  bool Rewritten = looksRewritten(Code);
  FrontEnd Opts = Front;
  Opts.Args.push_back("-w"); // user warnings are not ours to show
  if (!Rewritten && !Opts.AlwaysParse) {
    auto Unparsed = withoutParse(FilePath, Code, Opts);
    if (!Unparsed)
      return Unparsed.takeError();
    if (*Unparsed)
      return std::move(**Unparsed);
  }

  RewriteResult Result;
  Result.Output = Code.str();
  std::string Failure;
  llvm::Error ParseError = parseFile(FilePath, Code, Opts, [&](ParsedFile &P) {
    Result.FilesRead = P.FilesRead;
    if (Rewritten)
      reportOwnOutput(P, FilePath, V, Result);
    else if (P.HasErrors)
      Failure = P.DiagnosticText.empty() ? "cannot parse " + FilePath.str()
                                         : P.DiagnosticText;
    else
      Failure = rewriteParsed(P, FilePath, Code, V, Headers, Layout, Result);
  });
  if (ParseError)
    return std::move(ParseError);
  if (!Failure.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Failure);
  return Result;
}

} // namespace distwar
