//===- ParseSetup.cpp - what every parse of a file starts from ------------===//

#include "Parse/ParseSetup.h"
#include "Parse/FrontEndFiles.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace distwar {

/// The files \p Deps saw, as readFiles promises: the main file first, the
/// others sorted, the front end's own in-memory files left out. Sorted, so
/// that a parse through a precompiled header lists what a parse without
/// one lists.
std::vector<std::string> readFiles(const DependencyCollector &Deps,
                                   llvm::StringRef MainFile) {
  std::vector<std::string> Out;
  for (llvm::StringRef F : Deps.getDependencies())
    if (F != MainFile && !isFrontEndFile(F))
      Out.push_back(F.str());
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  Out.insert(Out.begin(), MainFile.str());
  return Out;
}

static /// The device-only compiler invocation of \p Args for \p FilePath, or
       /// null
    /// (with the driver's errors in \p Diags).
    std::shared_ptr<CompilerInvocation>
    makeInvocation(llvm::StringRef FilePath,
                   const std::vector<std::string> &Args,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                   llvm::IntrusiveRefCntPtr<DiagnosticsEngine> Diags,
                   std::vector<std::string> &CC1Args) {
  std::vector<std::string> Full = {"distwar-rewrite", "-fsyntax-only"};
  Full.insert(Full.end(), Args.begin(), Args.end());
  Full.push_back(FilePath.str());
  Full = tooling::getClangStripDependencyFileAdjuster()(Full, FilePath);
  std::vector<const char *> Argv;
  for (const std::string &A : Full)
    Argv.push_back(A.c_str());
  CreateInvocationOptions Opts;
  Opts.Diags = Diags;
  Opts.VFS = FS;
  Opts.CC1Args = &CC1Args;
  std::unique_ptr<CompilerInvocation> Inv = createInvocation(Argv, Opts);
  if (!Inv)
    return nullptr;
  Inv->getFrontendOpts().DisableFree = false;
  Inv->getFrontendOpts().SkipFunctionBodies = true; // SkippedBodies.h
  // The first nvcc declarations go before Clang's CUDA wrapper: libstdc++'s
  // headers that it includes must see the device-side declarations.
  std::vector<std::string> &Includes = Inv->getPreprocessorOpts().Includes;
  std::stable_partition(
      Includes.begin(), Includes.end(),
      [](llvm::StringRef I) { return I == frontEndBeforeWrapper(); });
  return std::shared_ptr<CompilerInvocation>(std::move(Inv));
}

/// Builds \p S's invocation for \p Options; an error when the driver
/// rejects the flags.
llvm::Error setUpParse(ParseSetup &S, llvm::StringRef FilePath,
                       const FrontEnd &Options) {
  auto Diags = CompilerInstance::createDiagnostics(
      *S.FS.Spelling, S.Failure.Options, &S.Failure, /*ShouldOwnClient=*/false);
  S.Inv =
      makeInvocation(FilePath, Options.Args, S.FS.Spelling, Diags, S.CC1Args);
  if (S.Inv)
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 S.Failure.hasError()
                                     ? S.Failure.summary()
                                     : "cannot parse " + FilePath.str());
}

/// Runs \p Action on \p Inv with diagnostics to \p Failure. The "N errors
/// generated" line is dropped: the tool says what failed, first.
bool runAction(std::shared_ptr<CompilerInvocation> Inv,
               llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
               FrontendAction &Action, DiagnosticConsumer &Diags) {
  CompilerInstance CI(std::move(Inv));
  CI.setVirtualFileSystem(FS);
  CI.createFileManager();
  CI.createDiagnostics(&Diags, /*ShouldOwnClient=*/false);
  CI.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());
  CI.createSourceManager();
  return CI.ExecuteAction(Action);
}

} // namespace distwar
