//===- Rewriter.cpp - one file in, rewritten text and report out ----------===//

#include "distwar-rewrite/Rewriter.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Effects.h"
#include "Decide/Editability.h"
#include "Decide/GroupPlans.h"
#include "Decide/GroupSafety.h"
#include "Decide/ReducedCode.h"
#include "Decide/VariantChoice.h"
#include "Emit/EditList.h"
#include "Emit/LaunchTuning.h"
#include "Emit/OutputText.h"
#include "Emit/UneditedHeaders.h"
#include "Find/AtomicSites.h"
#include "Find/MacroSites.h"
#include "Find/OptOut.h"
#include "Find/UnparsedFunctions.h"
#include "Group/ContinueSplit.h"
#include "Group/Grouping.h"
#include "Parse/HeaderCopies.h"
#include "Parse/ParseFailure.h"
#include "Parse/ParsedFile.h"
#include "Parse/SourcePaths.h"
#include "TileBalance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
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

/// The report: each site and group as found, grouped and planned.
static FileReport buildReport(llvm::StringRef FilePath,
                              const std::vector<AtomicSite> &Sites,
                              const RewritePlan &Plan, bool Changed) {
  FileReport R;
  R.File = FilePath.str();
  R.Changed = Changed;
  std::vector<int> GroupOf(Sites.size(), -1);
  std::vector<std::string> SlotOf(Sites.size());
  for (size_t G = 0; G < Plan.Groups.size(); ++G) {
    const GroupPlan &P = Plan.Groups[G];
    for (size_t K = 0; K < P.Group->Sites.size(); ++K) {
      GroupOf[P.Group->Sites[K]] = G;
      if (P.batched() && !Plan.Floor)
        SlotOf[P.Group->Sites[K]] = P.Slots.SlotTexts[K];
    }
  }
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
    Rec.Slot = SlotOf[I];
    Rec.Type = S.TypeText;
    Rec.Why = S.Why;
    Rec.File = S.File;
    Rec.Decision = "unchanged";
    if (Plan.Floor && R.Changed && S.IsDeviceAdd && S.Why != Reason::UsedResult)
      Rec.Decision = "floor";
    if (GroupOf[I] >= 0) {
      const GroupPlan &P = Plan.Groups[GroupOf[I]];
      Rec.Group = P.Name.empty()
                      ? S.FunctionName + "@" +
                            std::to_string(Sites[P.Group->Sites[0]].Line)
                      : P.Name;
      if (!Plan.Floor) {
        Rec.Why = P.Why;
        Rec.Decision = P.batched() ? "batched" : "unchanged";
      }
    }
    R.Sites.push_back(std::move(Rec));
  }
  if (Plan.Floor)
    return R;
  for (const GroupPlan &P : Plan.Groups) {
    const AtomicSite &First = Sites[P.Group->Sites.front()];
    GroupRecord Rec;
    Rec.Name = R.Sites[P.Group->Sites.front()].Group;
    Rec.Function = First.FunctionName;
    Rec.Key = First.KeyText;
    Rec.Type = First.TypeText;
    Rec.Sites.assign(P.Group->Sites.begin(), P.Group->Sites.end());
    Rec.Why = P.Why;
    Rec.Decision = P.batched() ? "batched" : "unchanged";
    if (P.batched()) {
      Rec.Size = P.Slots.Size;
      Rec.SharesMatchWith = P.SharesMatchWith;
      Rec.ReducedWith = P.ReducedWith;
      Rec.Strip = P.Strip.has_value();
      Rec.SerialForm = P.SerialForm;
      Rec.Variant = strategyName(P.Kind);
      Rec.Note = P.Note;
      Rec.BlockNote = P.BlockNote;
      Rec.StartNote = P.StartNote;
    }
    R.Groups.push_back(std::move(Rec));
  }
  return R;
}

/// Decides, per included file, whether its device functions may be edited,
/// and remembers the ones that may, each with the path its copy takes
/// (HeaderCopies.h).
class HeaderPolicyTable {
public:
  HeaderPolicyTable(const SourceManager &SM, const HeaderFilter *Filter,
                    llvm::ArrayRef<ParsedFile::ResolvedInclusion> Inclusions)
      : SM(SM), Filter(Filter) {
    if (Filter)
      Copies.emplace(*Filter, Inclusions);
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
  /// Where each allowed header's copy goes; none without a filter.
  std::optional<HeaderCopies> Copies;

private:
  Reason decide(FileID File) {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(File);
    if (!FE || !Filter)
      return Reason::HeaderNotEditable;
    std::optional<std::string> Rel =
        Copies->pathOf(&FE->getFileEntry(), absoluteFilePath(SM, File));
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
                            RewriteResult &Result) {
  if (!P.HasErrors) {
    std::vector<AtomicSite> Sites = findAtomicSites(P.Ctx);
    for (AtomicSite &S : Sites)
      S.Why = Reason::AlreadyRewritten;
    Result.Report = buildReport(FilePath, Sites, RewritePlan(), false);
  }
  Result.Report.File = FilePath.str();
  Result.Report.FileReason = Reason::AlreadyRewritten;
}

/// \p File of \p P (the main file, named \p FilePath, or a header) with
/// \p Edits applied, laid out as \p Layout says.
static llvm::Expected<OutputText> outputText(ParsedFile &P, FileID File,
                                             llvm::StringRef FilePath,
                                             const tooling::Replacements &Edits,
                                             const OutputLayout &Layout) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  std::string Path =
      File == SM.getMainFileID() ? FilePath.str() : absoluteFilePath(SM, File);
  return layOutEdits(
      Path, P.OriginalText(File), Edits, Layout, [&](unsigned Offset) {
        return presumedLine(SM, File, Offset, FilePath, Layout.Names);
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
  for (const ParsedFile::ResolvedInclusion &I : P.Inclusions)
    if (I.File == &SM.getFileEntryRefForID(File)->getFileEntry())
      H.IncludedAs.push_back(I.Spelling);
  H.Output = std::move(Text->Text);
  H.Edits = std::move(Text->Edits);
  for (const AtomicSite &S : Sites)
    if (!H.FirstLine && !S.File.empty() &&
        SM.getFileID(SM.getExpansionLoc(S.Call->getBeginLoc())) == File)
      H.FirstLine = S.Line;
  return H;
}

/// The pipeline on a parsed file: find the sites, group them, decide each
/// group's plan, write its edits and apply them.
/// \p Unparsed: the functions Clang could not parse, left as written (null
/// when it parsed the whole file).
static llvm::Error rewriteParsed(ParsedFile &P, llvm::StringRef FilePath,
                                 Variant V, const HeaderFilter *Headers,
                                 const OutputLayout &Layout,
                                 RewriteResult &Result,
                                 const UnparsedFunctions *Unparsed = nullptr) {
  ASTContext &Ctx = P.Ctx;
  EffectsScope Effects;
  const SourceManager &SM = Ctx.getSourceManager();
  HeaderPolicyTable Policy(SM, Headers, P.Inclusions);
  std::vector<AtomicSite> Sites = findAtomicSites(Ctx, Policy, Unparsed);
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
  const RewritePlan Plan =
      planRewrite(Ctx, Sites, Groups, V, Decisions, &Policy.Editable,
                  Layout.BlockStrategy, Layout.RunTimeForm, Unparsed);
  auto InternalError = [&](llvm::Error E) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        FilePath + ": internal error: " + llvm::toString(std::move(E)));
  };
  llvm::Expected<PlannedEdits> Edits =
      planEdits(Ctx, Sites, Plan, FilePath, &Policy.Editable, Layout);
  if (!Edits)
    return InternalError(Edits.takeError());
  if (!Plan.Floor)
    if (llvm::Error E =
            planLaunchTuning(Ctx, Plan, FilePath, Policy.Editable, Edits->Edits)
                .takeError())
      return InternalError(std::move(E));
  llvm::Expected<OutputText> Output =
      outputText(P, Ctx.getSourceManager().getMainFileID(), FilePath,
                 Edits->Edits, Layout);
  if (!Output)
    return Output.takeError();
  Result.Output = std::move(Output->Text);
  Result.Edits = std::move(Output->Edits);
  for (const auto &[File, FileEdits] : Edits->HeaderEdits) {
    llvm::Expected<HeaderOutput> H =
        editedHeader(P, Policy, File, FileEdits, Sites, Layout);
    if (!H)
      return H.takeError();
    Result.Headers.push_back(std::move(*H)); // FileIDs grow in entry order
  }
  if (Headers && !Result.Headers.empty())
    addUneditedHeaders(P, *Policy.Copies, Result.Headers);
  Result.Report = buildReport(FilePath, Sites, Plan, !Edits->Edits.empty());
  for (const HeaderOutput &H : Result.Headers)
    if (H.Edited)
      Result.Report.EditedHeaders.push_back(H.Path);
  return llvm::Error::success();
}

/// The parse error of \p P as the error rewriteSource returns.
static llvm::Error parseError(const ParsedFile &P, llvm::StringRef FilePath) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 P.DiagnosticText.empty()
                                     ? "cannot parse " + FilePath.str()
                                     : P.DiagnosticText);
}

/// A file in which Clang reported errors: rewritten but for the functions
/// the errors make unparsed, with a warning naming the first error (of this
/// parse: P.DiagnosticText may name an earlier parse's); the parse error
/// itself when an error lies outside every function.
static llvm::Error rewriteAroundErrors(ParsedFile &P, llvm::StringRef FilePath,
                                       Variant V, const HeaderFilter *Headers,
                                       const OutputLayout &Layout,
                                       RewriteResult &Result) {
  std::optional<UnparsedFunctions> Unparsed =
      UnparsedFunctions::find(P.Ctx, P.Errors);
  if (!Unparsed)
    return parseError(P, FilePath);
  if (llvm::Error E =
          rewriteParsed(P, FilePath, V, Headers, Layout, Result, &*Unparsed))
    return E;
  const ClangError &First = P.Errors.front();
  Result.Report.ParseError =
      placeAt(P.Ctx.getSourceManager(), First.Loc, First.Message);
  unsigned N = Unparsed->userFunctions();
  Result.Report.UnparsedFunctionCount = N;
  const ReasonInfo &Info = reasonInfo(Reason::ParseErrorInFunction);
  Result.Warning =
      errorLine(&P.Ctx.getSourceManager(), First.Loc, First.Message, First.ID) +
      " (" + std::to_string(N) + " function" + (N == 1 ? "" : "s") +
      " left as written, " + Info.Code.str() + " " + Info.Name.str() + ")";
  return llvm::Error::success();
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
    if (*Unparsed) {
      RewriteResult Passed = std::move(**Unparsed);
      if (Layout.Balance == BlockBalance::Tiles)
        if (llvm::Error E =
                balanceTiles(FilePath, Opts, Headers, Layout, Passed))
          return std::move(E);
      return Passed;
    }
  }

  RewriteResult Result;
  Result.Output = Code.str();
  // Set once, by the callback; an Error that has not been checked may not
  // be assigned to.
  std::optional<llvm::Error> Failure;
  llvm::Error ParseError = parseFile(FilePath, Code, Opts, [&](ParsedFile &P) {
    Result.FilesRead = P.FilesRead;
    if (Rewritten)
      reportOwnOutput(P, FilePath, Result);
    else if (P.HasErrors)
      Failure.emplace(
          rewriteAroundErrors(P, FilePath, V, Headers, Layout, Result));
    else
      Failure.emplace(rewriteParsed(P, FilePath, V, Headers, Layout, Result));
  });
  if (ParseError) {
    if (Failure)
      llvm::consumeError(std::move(*Failure));
    return std::move(ParseError);
  }
  if (Failure && *Failure)
    return std::move(*Failure);
  if (Layout.Balance == BlockBalance::Tiles)
    if (llvm::Error E = balanceTiles(FilePath, Opts, Headers, Layout, Result))
      return std::move(E);
  return Result;
}

} // namespace distwar
