//===- TileBalance.cpp - the --balance=tiles pass -------------------------===//

#include "TileBalance.h"
#include "Analysis/AstQueries.h"
#include "Decide/TileKernels.h"
#include "Emit/EditList.h"
#include "Emit/OutputText.h"
#include "Emit/TileEdits.h"
#include "Emit/UneditedHeaders.h"
#include "Parse/ParseFailure.h"
#include "Parse/ParsedFile.h"
#include "Parse/SourcePaths.h"
#include <algorithm>

using namespace clang;

namespace distwar {

/// The report's record of each kernel of \p Plan, at the line the user
/// wrote it on (the batched text's #line directives keep it).
static std::vector<KernelRecord> kernelRecords(const SourceManager &SM,
                                               const TilePlan &Plan) {
  std::vector<KernelRecord> Out;
  for (const TileKernelPlan &K : Plan.Kernels) {
    KernelRecord R;
    SourceLocation Loc = SM.getExpansionLoc(K.Kernel->getLocation());
    PresumedLoc P = SM.getPresumedLoc(Loc);
    R.Line = P.isValid() ? P.getLine() : 0;
    R.Column = P.isValid() ? P.getColumn() : 0;
    if (P.isValid() && !SM.isWrittenInMainFile(Loc))
      R.File = P.getFilename();
    R.Function = K.Kernel->getNameAsString();
    R.Decision = K.balanced() ? "balanced" : "unchanged";
    R.Why = K.Why;
    R.Launches = K.balanced() ? K.Launches.size() : 0;
    R.OrderedLaunches = llvm::count_if(
        K.Launches, [](const TileLaunchPlan &L) { return L.Ordered; });
    if (R.OrderedLaunches) {
      assert(K.Cost && "a launch is ordered by its kernel's cost");
      PresumedLoc Loop =
          SM.getPresumedLoc(SM.getExpansionLoc(K.Cost->Loop->getBeginLoc()));
      R.CostLine = Loop.isValid() ? Loop.getLine() : 0;
    }
    Out.push_back(std::move(R));
  }
  return Out;
}

/// The headers the batching edited, which the parse must read as it left
/// them.
static std::vector<FileOverlay> batchedHeaders(const RewriteResult &Result) {
  std::vector<FileOverlay> Out;
  for (const HeaderOutput &H : Result.Headers)
    if (H.Edited)
      Out.push_back({H.Path, H.Output});
  return Out;
}

/// The headers of \p P that the batching edited but that the parse read
/// from the disk all the same (an #include reached them through another
/// path than the batching's): their batched text would be lost.
static llvm::DenseSet<FileID> staleHeaders(ParsedFile &P,
                                           const RewriteResult &Result) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  llvm::DenseSet<FileID> Out;
  if (llvm::none_of(Result.Headers,
                    [](const HeaderOutput &H) { return H.Edited; }))
    return Out;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile() || !E.getFile().getContentCache().OrigEntry)
      continue;
    FileID File =
        SM.getFileID(SourceLocation::getFromRawEncoding(E.getOffset()));
    std::string Path = absoluteFilePath(SM, File);
    for (const HeaderOutput &H : Result.Headers)
      if (H.Edited && H.Path == Path && P.OriginalText(File) != H.Output)
        Out.insert(File);
  }
  return Out;
}

/// Where Clang reported errors: one warning line naming the first (unless
/// the batching's names it already) and how many kernels it keeps as
/// written; the report's record of it when the batching made none.
static void reportErrors(ParsedFile &P, const TilePlan &Plan,
                         const TileErrors &Errors, RewriteResult &Result) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  unsigned Kept = llvm::count_if(Plan.Kernels, [](const TileKernelPlan &K) {
    return K.Why == Reason::TileParseError;
  });
  const ReasonInfo &Info = reasonInfo(Reason::TileParseError);
  std::string Note = "--balance=tiles: " + std::to_string(Kept) + " of " +
                     std::to_string(Plan.Kernels.size()) +
                     " kernel(s) not balanced, " + Info.Code.str() + " " +
                     Info.Name.str();
  if (!Result.Warning.empty()) {
    if (Kept)
      Result.Warning += "; " + Note;
  } else if (P.Errors.empty()) {
    llvm::StringRef First = llvm::StringRef(P.DiagnosticText).split('\n').first;
    Result.Warning = First.str() + " (" + Note + ")";
  } else {
    const ClangError &First = P.Errors.front();
    Result.Warning =
        errorLine(&SM, First.Loc, First.Message, First.ID) + " (" + Note + ")";
  }
  if (Result.Report.ParseError || P.Errors.empty())
    return;
  Result.Report.ParseError =
      presumedPlaceAt(SM, P.Errors.front().Loc, P.Errors.front().Message);
  Result.Report.UnparsedFunctionCount = Errors.unparsedUserFunctions();
}

/// The line of the first balanced kernel or launch in \p File (where the
/// tool's errors about a header point).
static unsigned firstLineIn(const SourceManager &SM, const TilePlan &Plan,
                            FileID File) {
  auto LineIfIn = [&](SourceLocation Loc) -> unsigned {
    Loc = SM.getExpansionLoc(Loc);
    return SM.getFileID(Loc) == File ? SM.getPresumedLineNumber(Loc) : 0;
  };
  for (const TileKernelPlan &K : Plan.Kernels) {
    if (!K.balanced())
      continue;
    if (unsigned Line = LineIfIn(K.Kernel->getLocation()))
      return Line;
    for (const TileLaunchPlan &Launch : K.Launches)
      if (unsigned Line = LineIfIn(Launch.Call->getBeginLoc()))
        return Line;
  }
  return 0;
}

/// Header \p File of \p P with \p Edits on top of what the batching made of
/// it: its entry of Result.Headers, added when the batching left it alone.
static llvm::Error editHeader(ParsedFile &P, FileID File,
                              const tooling::Replacements &Edits,
                              const TileFiles &Files, const TilePlan &Plan,
                              llvm::StringRef FilePath,
                              const OutputLayout &Layout,
                              RewriteResult &Result) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  std::string Path = absoluteFilePath(SM, File);
  llvm::Expected<OutputText> Output = layOutEdits(
      Path, P.OriginalText(File), Edits, Layout, [&](unsigned Offset) {
        return presumedLine(SM, File, Offset, FilePath, Layout.Names);
      });
  if (!Output)
    return Output.takeError();
  auto It = llvm::find_if(
      Result.Headers, [&](const HeaderOutput &H) { return H.Path == Path; });
  if (It == Result.Headers.end()) {
    HeaderOutput H;
    H.Path = Path;
    H.RelativePath = Files.copyPath(File);
    H.FirstLine = firstLineIn(SM, Plan, File);
    for (const ParsedFile::ResolvedInclusion &I : P.Inclusions)
      if (I.File == &SM.getFileEntryRefForID(File)->getFileEntry())
        H.IncludedAs.push_back(I.Spelling);
    It = Result.Headers.insert(Result.Headers.end(), std::move(H));
  }
  if (!It->FirstLine)
    It->FirstLine = firstLineIn(SM, Plan, File);
  It->Edited = true;
  It->Output = std::move(Output->Text);
  // The batching's edits are on the original, these on its output.
  It->Edits = It->Edits.merge(Output->Edits);
  if (!llvm::is_contained(Result.Report.EditedHeaders, Path))
    Result.Report.EditedHeaders.push_back(Path);
  return llvm::Error::success();
}

/// The main file of \p P with \p Edits on top of the batched text.
static llvm::Error editMain(ParsedFile &P, const tooling::Replacements &Edits,
                            llvm::StringRef FilePath,
                            const OutputLayout &Layout, RewriteResult &Result) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  llvm::Expected<OutputText> Output = layOutEdits(
      FilePath, P.OriginalText(Main), Edits, Layout, [&](unsigned Offset) {
        return presumedLine(SM, Main, Offset, FilePath, Layout.Names);
      });
  if (!Output)
    return Output.takeError();
  Result.Output = std::move(Output->Text);
  // Result's edits are on the input, these on the batched text: merged,
  // they are the whole change on the input (--export-fixes).
  Result.Edits = Result.Edits.merge(Output->Edits);
  Result.Report.Changed = true;
  return llvm::Error::success();
}

/// Writes each file's edits into \p Result; the headers' copies get their
/// unedited neighbours (UneditedHeaders.h).
static llvm::Error
applyEdits(ParsedFile &P, const std::map<FileID, tooling::Replacements> &Edits,
           const TileFiles &Files, const TilePlan &Plan,
           llvm::StringRef FilePath, const HeaderFilter *Headers,
           const OutputLayout &Layout, RewriteResult &Result) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  bool HeaderEdited = false;
  for (const auto &[File, FileEdits] : Edits) {
    llvm::Error E = File == SM.getMainFileID()
                        ? editMain(P, FileEdits, FilePath, Layout, Result)
                        : editHeader(P, File, FileEdits, Files, Plan, FilePath,
                                     Layout, Result);
    if (E)
      return E;
    HeaderEdited |= File != SM.getMainFileID();
  }
  if (!HeaderEdited)
    return llvm::Error::success();
  assert(Headers && "only an allowed header is written");
  HeaderCopies Copies(*Headers, P.Inclusions);
  addUneditedHeaders(P, Copies, Result.Headers);
  // Edited ones first, as the batching lists them.
  std::stable_partition(Result.Headers.begin(), Result.Headers.end(),
                        [](const HeaderOutput &H) { return H.Edited; });
  return llvm::Error::success();
}

/// The pass on a parse of Result's output.
static llvm::Error balanceParsed(ParsedFile &P, llvm::StringRef FilePath,
                                 const HeaderFilter *Headers,
                                 const OutputLayout &Layout,
                                 RewriteResult &Result) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  const TileFiles Files(SM, Headers, P.Inclusions, staleHeaders(P, Result));
  std::optional<TileErrors> Errors;
  if (P.HasErrors)
    Errors.emplace(P.Ctx, P.Tokens, P.Errors);
  const TilePlan Plan = planTiles(P.Ctx, Files, Errors ? &*Errors : nullptr);
  Result.Report.Kernels = kernelRecords(SM, Plan);
  if (Errors)
    reportErrors(P, Plan, *Errors, Result);
  llvm::Expected<std::map<FileID, tooling::Replacements>> Edits = planTileEdits(
      P.Ctx, Plan, FilePath, Layout,
      [&](FileID File) { return P.OriginalText(File); },
      [&](FileID File, unsigned Offset) {
        return presumedLine(SM, File, Offset, FilePath, Layout.Names);
      });
  if (!Edits)
    return Edits.takeError();
  return applyEdits(P, *Edits, Files, Plan, FilePath, Headers, Layout, Result);
}

llvm::Error balanceTiles(llvm::StringRef FilePath, const FrontEnd &Front,
                         const HeaderFilter *Headers,
                         const OutputLayout &Layout, RewriteResult &Result) {
  FrontEnd Opts = Front;
  Opts.AlwaysParse = true; // a kernel with no atomic is what it balances
  // Set once, by the callback; an Error that has not been checked may not
  // be assigned to.
  std::optional<llvm::Error> Failure;
  const std::string Batched = Result.Output;
  llvm::Error ParseError = parseFile(
      FilePath, Batched, Opts,
      [&](ParsedFile &P) {
        Failure.emplace(balanceParsed(P, FilePath, Headers, Layout, Result));
      },
      batchedHeaders(Result));
  if (ParseError) {
    if (Failure)
      llvm::consumeError(std::move(*Failure));
    return ParseError;
  }
  if (Failure && *Failure)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        FilePath + ": internal error: " + llvm::toString(std::move(*Failure)));
  return llvm::Error::success();
}

} // namespace distwar
