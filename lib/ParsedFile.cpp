//===- ParsedFile.cpp - one device-only parse of one file -----------------===//

#include "distwar/ParsedFile.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>

using namespace clang;

namespace distwar {

namespace {

/// Every file entered, system headers included: a depfile must name the
/// CUDA headers too, or an SDK update would not re-run the rewrite.
class EveryFileCollector : public DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

/// Records the spelling of each resolved #include.
class InclusionRecorder : public PPCallbacks {
public:
  explicit InclusionRecorder(std::vector<Inclusion> &Out) : Out(Out) {}
  void InclusionDirective(SourceLocation, const Token &, StringRef FileName,
                          bool, CharSourceRange, OptionalFileEntryRef File,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (File)
      Out.push_back({FileName.str(), &File->getFileEntry()});
  }

private:
  std::vector<Inclusion> &Out;
};

class ParseAction : public ASTFrontendAction {
public:
  ParseAction(llvm::function_ref<void(ParsedFile &)> Body,
              std::string &DiagText)
      : Body(Body), DiagText(DiagText) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<ASTConsumer>();
  }

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Collector.emplace(CI.getPreprocessor());
    Deps = std::make_shared<EveryFileCollector>();
    Deps->attachToPreprocessor(CI.getPreprocessor());
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<InclusionRecorder>(Inclusions));
    return true;
  }

  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    syntax::TokenBuffer Tokens = std::move(*Collector).consume();
    ParsedFile File{CI.getASTContext(), Tokens};
    File.HasErrors = CI.getDiagnostics().hasErrorOccurred();
    File.DiagnosticText = DiagText;
    File.FilesRead.assign(Deps->getDependencies().begin(),
                          Deps->getDependencies().end());
    File.Inclusions = std::move(Inclusions);
    Body(File);
    Ran = true;
  }

  bool Ran = false;

private:
  llvm::function_ref<void(ParsedFile &)> Body;
  std::string &DiagText;
  std::optional<syntax::TokenCollector> Collector;
  std::shared_ptr<EveryFileCollector> Deps;
  std::vector<Inclusion> Inclusions;
};

} // namespace

llvm::Error parseFile(llvm::StringRef FilePath, llvm::StringRef Code,
                      const std::vector<std::string> &FrontEndArgs,
                      llvm::function_ref<void(ParsedFile &)> Body) {
  std::vector<std::string> Args = {"distwar-rewrite", "-fsyntax-only"};
  Args.insert(Args.end(), FrontEndArgs.begin(), FrontEndArgs.end());
  Args.push_back(FilePath.str());
  Args = tooling::getClangStripDependencyFileAdjuster()(Args, FilePath);

  // The code is read from memory (the caller may have it from stdin or a
  // check); everything else from disk.
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile(FilePath, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  auto Files =
      llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Overlay);

  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  DiagnosticOptions DiagOpts;
  TextDiagnosticPrinter Printer(DiagOS, DiagOpts);
  auto Action = std::make_unique<ParseAction>(Body, DiagText);
  ParseAction *Raw = Action.get();
  tooling::ToolInvocation Invocation(std::move(Args), std::move(Action),
                                     Files.get());
  Invocation.setDiagnosticConsumer(&Printer);
  Invocation.run();
  if (!Raw->Ran)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        DiagText.empty() ? "cannot parse " + FilePath.str() : DiagText);
  return llvm::Error::success();
}

} // namespace distwar
