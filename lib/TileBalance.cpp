//===- TileBalance.cpp - the --balance=tiles pass -------------------------===//

#include "TileBalance.h"
#include "Decide/TileKernels.h"
#include "Emit/EditList.h"
#include "Emit/OutputText.h"
#include "Emit/TileEdits.h"
#include "Parse/ParsedFile.h"

using namespace clang;

namespace distwar {

/// The report's record of each kernel of \p Plan.
static std::vector<KernelRecord> kernelRecords(const SourceManager &SM,
                                               const TilePlan &Plan) {
  std::vector<KernelRecord> Out;
  for (const TileKernelPlan &K : Plan.Kernels) {
    KernelRecord R;
    PresumedLoc P = SM.getPresumedLoc(K.Kernel->getLocation());
    R.Line = P.isValid() ? P.getLine() : 0;
    R.Column = P.isValid() ? P.getColumn() : 0;
    R.Function = K.Kernel->getNameAsString();
    R.Decision = K.balanced() ? "balanced" : "unchanged";
    R.Why = K.Why;
    R.Launches = K.balanced() ? K.Launches.size() : 0;
    Out.push_back(std::move(R));
  }
  return Out;
}

/// The pass on a parse of Result's output.
static llvm::Error balanceParsed(ParsedFile &P, llvm::StringRef FilePath,
                                 const OutputLayout &Layout,
                                 RewriteResult &Result) {
  if (P.HasErrors)
    return llvm::Error::success(); // what Clang could not parse is unproven
  const SourceManager &SM = P.Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  const TilePlan Plan = planTiles(P.Ctx);
  Result.Report.Kernels = kernelRecords(SM, Plan);
  llvm::StringRef Text = P.OriginalText(Main);
  auto Presumed = [&](unsigned Offset) {
    return presumedLine(SM, Main, Offset, FilePath, Layout.Names);
  };
  llvm::Expected<tooling::Replacements> Edits =
      planTileEdits(P.Ctx, Plan, FilePath, Text, Layout, Presumed);
  if (!Edits)
    return Edits.takeError();
  if (Edits->empty())
    return llvm::Error::success();
  llvm::Expected<OutputText> Output =
      layOutEdits(FilePath, Text, *Edits, Layout, Presumed);
  if (!Output)
    return Output.takeError();
  Result.Output = std::move(Output->Text);
  // Result's edits are on the input, these on the batched text: merged,
  // they are the whole change on the input (--export-fixes).
  Result.Edits = Result.Edits.merge(Output->Edits);
  Result.Report.Changed = true;
  return llvm::Error::success();
}

llvm::Error balanceTiles(llvm::StringRef FilePath, const FrontEnd &Front,
                         const OutputLayout &Layout, RewriteResult &Result) {
  FrontEnd Opts = Front;
  Opts.AlwaysParse = true; // a kernel with no atomic is what it balances
  // Set once, by the callback; an Error that has not been checked may not
  // be assigned to.
  std::optional<llvm::Error> Failure;
  const std::string Batched = Result.Output;
  llvm::Error ParseError =
      parseFile(FilePath, Batched, Opts, [&](ParsedFile &P) {
        Failure.emplace(balanceParsed(P, FilePath, Layout, Result));
      });
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
