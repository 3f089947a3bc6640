//===- ParsedFile.cpp - one device-only parse of one file -----------------===//

#include "Parse/ParsedFile.h"
#include "Parse/FrontEndFiles.h"
#include "Parse/HoistedHeaders.h"
#include "Parse/LeadingIncludes.h"
#include "Parse/NvccSpelling.h"
#include "Parse/ParseFailure.h"
#include "Parse/ParseSetup.h"
#include "Parse/Preamble.h"
#include "Parse/PrecompiledHeaders.h"
#include "Parse/SkippedBodies.h"
#include "Parse/SourcePaths.h"
#include "distwar-rewrite/CudaArgs.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "distwar-rewrite/Paths.h"
#include "distwar-rewrite/PchCache.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>

using namespace clang;

namespace distwar {

namespace {

/// Records the spelling of each resolved #include.
class InclusionRecorder : public PPCallbacks {
public:
  InclusionRecorder(const SourceManager &SM,
                    std::vector<ParsedFile::ResolvedInclusion> &Out)
      : SM(SM), Out(Out) {}
  void InclusionDirective(SourceLocation Hash, const Token &,
                          StringRef FileName, bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef File, StringRef SearchPath,
                          StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    OptionalFileEntryRef From = SM.getFileEntryRefForID(SM.getFileID(Hash));
    std::optional<Inclusion> Spelling =
        inclusionSpelling(SM, Hash, FileName, IsAngled, SearchPath);
    if (!File || !Spelling)
      return;
    Out.push_back(
        {std::move(*Spelling), &File->getFileEntry(), &From->getFileEntry()});
  }

private:
  const SourceManager &SM;
  std::vector<ParsedFile::ResolvedInclusion> &Out;
};

/// The top-level declarations this parse read (not those of a precompiled
/// header); skips the bodies SkippedBodies.h names.
class TopLevelDecls : public BodySkipper {
public:
  TopLevelDecls(const SourceManager &SM, std::vector<Decl *> &Out)
      : BodySkipper(SM), Out(Out) {}
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    Out.insert(Out.end(), Group.begin(), Group.end());
    return true;
  }
  // What a precompiled header hands over (its functions to emit) was not
  // parsed here.
  void HandleInterestingDecl(DeclGroupRef) override {}

private:
  std::vector<Decl *> &Out;
};

class ParseAction : public ASTFrontendAction {
public:
  ParseAction(llvm::function_ref<void(ParsedFile &)> Body,
              const ParseFailure &Failure, const ErrorLog &Log,
              const NvccSpellingFileSystem &FS,
              const PrecompiledHeader *Pch = nullptr,
              const Hoisting *Hoisted = nullptr)
      : Body(Body), Failure(Failure), Log(Log), FS(FS), Pch(Pch),
        Hoisted(Hoisted) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<TopLevelDecls>(CI.getSourceManager(), Parsed);
  }

  /// The parse starts after \p P, the file's precompiled preamble.
  void setPreamble(const CachedPreamble *P) { Preamble = P; }

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Collector.emplace(CI.getPreprocessor());
    Deps = std::make_shared<EveryFileCollector>();
    Deps->attachToPreprocessor(CI.getPreprocessor());
    CI.addDependencyCollector(Deps); // the precompiled header's files
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<InclusionRecorder>(CI.getSourceManager(), Inclusions));
    if (Pch && Pch->Names) {
      assert(Hoisted && "an entry that hoists has what it hoists");
      auto Check = std::make_unique<HoistCheck>(CI.getPreprocessor(), *Hoisted,
                                                Pch->Names, Pch->Macros,
                                                Pch->HeaderNames);
      Hoist = Check.get();
      CI.getPreprocessor().addPPCallbacks(std::move(Check));
    }
    return true;
  }

  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    syntax::TokenBuffer Tokens = std::move(*Collector).consume();
    if (Hoist && !Hoist->sound(Parsed)) {
      HoistUnsound = true;
      return;
    }
    // Visitors of the AST walk what this parse read: the declarations of a
    // precompiled header (the CUDA headers, never edited) would otherwise be
    // loaded from it one by one, at the cost of parsing them.
    if (Preamble) {
      std::vector<ParsedFile::ResolvedInclusion> Replayed;
      replayPreambleInclusions(*Preamble, CI.getFileManager(), Replayed);
      Inclusions.insert(Inclusions.begin(), Replayed.begin(), Replayed.end());
    }
    CI.getASTContext().setTraversalScope(Parsed);
    // Types are spelled into the output as a user could write them there: a
    // type of an anonymous namespace by its own name.
    PrintingPolicy Policy = CI.getASTContext().getPrintingPolicy();
    Policy.SuppressUnwrittenScope = true;
    CI.getASTContext().setPrintingPolicy(Policy);
    ParsedFile File{CI.getASTContext(), Tokens};
    File.HasErrors = CI.getDiagnostics().hasErrorOccurred();
    File.DiagnosticText = Failure.text();
    File.Errors.assign(Log.errors().begin(), Log.errors().end());
    File.FilesRead = readFiles(*Deps, getCurrentFile());
    File.Inclusions = std::move(Inclusions);
    const SourceManager &SM = CI.getSourceManager();
    File.OriginalText = [&](FileID ID) -> llvm::StringRef {
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(ID);
      if (FE)
        if (std::optional<std::string> Text = FS.originalText(FE->getName()))
          return Originals.emplace_back(std::move(*Text));
      return SM.getBufferData(ID);
    };
    Body(File);
    Ran = true;
  }

  bool Ran = false;
  /// The hoisted headers may have read differently where they were
  /// included: the parse is not used.
  bool HoistUnsound = false;

private:
  llvm::function_ref<void(ParsedFile &)> Body;
  const ParseFailure &Failure;
  const ErrorLog &Log;
  const NvccSpellingFileSystem &FS;
  const PrecompiledHeader *Pch;
  const CachedPreamble *Preamble = nullptr;
  const Hoisting *Hoisted;
  HoistCheck *Hoist = nullptr; ///< owned by the preprocessor
  std::optional<syntax::TokenCollector> Collector;
  std::shared_ptr<EveryFileCollector> Deps;
  std::vector<ParsedFile::ResolvedInclusion> Inclusions;
  std::vector<Decl *> Parsed;
  std::deque<std::string> Originals; ///< stable addresses
};

} // namespace

namespace {
enum class Cached { Done, Retry, Failed };

} // namespace

namespace {
/// How a parse through a cache entry went.
struct CleanParse {
  bool Done = false;         ///< it ran, Clang reported no error
  bool FromEntry = false;    ///< an error came from reading the entry
  bool HoistUnsound = false; ///< see ParseAction::HoistUnsound
};
} // namespace

/// One parse of \p Inv through a cache entry (\p Pch holding \p Hoisted,
/// or \p Preamble); \p Body runs only when Clang reports no error.
static CleanParse parseClean(ParseFileSystem &FS,
                             std::shared_ptr<CompilerInvocation> Inv,
                             const PrecompiledHeader *Pch,
                             const Hoisting *Hoisted,
                             const CachedPreamble *Preamble,
                             llvm::function_ref<void(ParsedFile &)> Body) {
  ParseFailure Failure;
  bool Failed = false;
  auto BodyUnlessFailed = [&](ParsedFile &P) {
    Failed = P.HasErrors;
    if (!Failed)
      Body(P);
  };
  ErrorLog Log(Failure);
  ParseAction Action(BodyUnlessFailed, Failure, Log, *FS.Spelling, Pch,
                     Hoisted);
  Action.setPreamble(Preamble);
  runAction(std::move(Inv), FS.Spelling, Action, Log);
  return {Action.Ran && !Failed, Failure.fromPrecompiledHeader(),
          Action.HoistUnsound};
}

/// One parse through the cache's precompiled header holding \p Choice's
/// headers: Retry when none
/// can be used or the hoisting is not sound (HoistCheck: noted, so that the
/// parse of the same text is not tried again);
/// Failed when the parse reported errors (the plain parse then says which,
/// or succeeds where the entry was broken, which is removed).
static Cached parseCached(ParseFileSystem &FS, const CompilerInvocation &Inv,
                          llvm::ArrayRef<std::string> CC1Args,
                          llvm::StringRef CacheDir, llvm::StringRef FilePath,
                          llvm::StringRef Code, const HoistingChoice &Choice,
                          llvm::function_ref<void(ParsedFile &)> Body) {
  const Hoisting &Hoisted = Choice.Hoisted;
  auto Copy = std::make_shared<CompilerInvocation>(Inv);
  std::optional<PrecompiledHeader> Pch =
      usePrecompiledHeader(CacheDir, *Copy, CC1Args, FS.Spelling, Hoisted);
  if (!Pch)
    return Cached::Retry;
  // A macro the file defines first and the headers spell, one it undefines
  // and they define, or a parse of the same text refused before: HoistCheck
  // would refuse it, so it is not run.
  auto In = [](const std::shared_ptr<const llvm::StringSet<>> &Set,
               llvm::ArrayRef<std::string> Macros) {
    return Set && llvm::any_of(Macros, [&](const std::string &M) {
             return Set->contains(M);
           });
  };
  if (In(Pch->Names, Choice.MacrosBefore) ||
      In(Pch->Macros, Choice.UnsetBefore) ||
      (!Hoisted.empty() && refusedBefore(*Pch, FilePath, Code)))
    return Cached::Retry;
  CleanParse R = parseClean(FS, Copy, &*Pch, &Hoisted, nullptr, Body);
  if (R.Done)
    return Cached::Done;
  if (R.FromEntry)
    discardPrecompiledHeader(Pch->Path);
  if (!R.HoistUnsound)
    return Cached::Failed;
  noteRefused(*Pch, FilePath, Code);
  return Cached::Retry;
}

/// One parse through the file's precompiled preamble (Preamble.h): Retry
/// when it has none worth having; Failed as for parseCached.
static Cached parsePreamble(ParseFileSystem &FS, const CompilerInvocation &Inv,
                            llvm::ArrayRef<std::string> CC1Args,
                            llvm::StringRef CacheDir, llvm::StringRef FilePath,
                            llvm::function_ref<void(ParsedFile &)> Body) {
  auto Main = FS.Spelling->getBufferForFile(FilePath);
  if (!Main)
    return Cached::Retry;
  auto Copy = std::make_shared<CompilerInvocation>(Inv);
  std::optional<CachedPreamble> Preamble = useCachedPreamble(
      CacheDir, *Copy, CC1Args, FS.Spelling, FilePath, (*Main)->getBuffer());
  if (!Preamble)
    return Cached::Retry;
  CleanParse R = parseClean(FS, Copy, nullptr, nullptr, &*Preamble, Body);
  if (R.Done)
    return Cached::Done;
  if (R.FromEntry)
    discardCachedPreamble(Preamble->Path);
  return Cached::Failed;
}

/// The choices to try in turn: the system headers the file includes at file
/// scope through its own headers (LeadingIncludes.h), with the #defines
/// between them, and its CUDA SDK headers; as many as come before the first
/// declaration, when fewer; its CUDA SDK headers; none. Their main files
/// are added to \p FS.
static std::vector<HoistingChoice>
hoistingChoices(llvm::StringRef FilePath, llvm::StringRef Code,
                const CompilerInvocation &Inv, ParseFileSystem &FS) {
  const HeaderSearchOptions &Search = Inv.getHeaderSearchOpts();
  std::vector<std::string> Sdk = hoistableIncludes(Code, Search, *FS.Spelling);
  std::vector<HoistingChoice> Out;
  for (HoistingChoice &Leading : leadingSystemIncludes(
           FilePath, Code, Search, Inv.getPreprocessorOpts(), *FS.Spelling)) {
    Hoisting &H = Leading.Hoisted;
    for (const std::string &Header : Sdk)
      if (!llvm::is_contained(H.Headers, Header))
        H.Headers.push_back(Header);
    if (H.Headers != Sdk || !H.Defines.empty())
      Out.push_back(std::move(Leading));
  }
  if (!Sdk.empty())
    Out.push_back({Hoisting{std::move(Sdk), {}}, {}, {}});
  Out.emplace_back();
  for (const HoistingChoice &C : Out)
    if (!C.Hoisted.empty()) {
      std::string Text = hoistedIncludeText(C.Hoisted);
      FS.Memory->addFile(frontEndHoistedMain(Text), 0,
                         llvm::MemoryBuffer::getMemBufferCopy(Text));
    }
  return Out;
}

llvm::Error parseFile(llvm::StringRef FilePath, llvm::StringRef Code,
                      const FrontEnd &Options,
                      llvm::function_ref<void(ParsedFile &)> Body,
                      llvm::ArrayRef<FileOverlay> Overlays) {
  ParseSetup S(FilePath, Code);
  for (const FileOverlay &O : Overlays)
    S.FS.Memory->addFile(O.Path, 0,
                         llvm::MemoryBuffer::getMemBufferCopy(O.Text));
  if (llvm::Error E = setUpParse(S, FilePath, Options))
    return E;
  ParseFileSystem &FS = S.FS;
  ParseFailure &Failure = S.Failure;
  const std::vector<std::string> &CC1Args = S.CC1Args;
  std::shared_ptr<CompilerInvocation> Inv = S.Inv;
  // Through the file's precompiled preamble first, else a precompiled
  // header with the headers hoistingChoices names when that is sound, else
  // with fewer; should it fail (a stale or broken cache entry), the plain
  // parse decides: the result never depends on the cache.
  if (!Options.CacheDir.empty()) {
    Cached Result =
        parsePreamble(FS, *Inv, CC1Args, Options.CacheDir, FilePath, Body);
    if (Result == Cached::Retry)
      for (const HoistingChoice &Choice :
           hoistingChoices(FilePath, Code, *Inv, FS)) {
        Result = parseCached(FS, *Inv, CC1Args, Options.CacheDir, FilePath,
                             Code, Choice, Body);
        if (Result != Cached::Retry)
          break;
      }
    if (Result == Cached::Done)
      return llvm::Error::success();
  }
  // A constant Clang's evaluator rejects and nvcc accepts (a static member
  // read through a reference, allowed from C++23 on) is read by Clang's
  // newer evaluator, which follows C++23 there; the first failure is the
  // one reported when that does not help either.
  bool RetryConstants = false;
  auto BodyOrRetry = [&](ParsedFile &P) {
    RetryConstants = P.HasErrors && Failure.fromConstantEvaluation();
    if (!RetryConstants)
      Body(P);
  };
  ErrorLog Log(Failure);
  ParseAction Action(BodyOrRetry, Failure, Log, *FS.Spelling);
  runAction(Inv, FS.Spelling, Action, Log);
  if (RetryConstants) {
    auto Retry = std::make_shared<CompilerInvocation>(*Inv);
    Retry->getLangOpts().EnableNewConstInterp = true;
    ParseFailure RetryFailure;
    auto BodyFirstMessage = [&](ParsedFile &P) {
      if (P.HasErrors)
        P.DiagnosticText = Failure.text();
      Body(P);
    };
    ErrorLog RetryLog(RetryFailure);
    ParseAction Again(BodyFirstMessage, RetryFailure, RetryLog, *FS.Spelling);
    runAction(Retry, FS.Spelling, Again, RetryLog);
    if (Again.Ran)
      return llvm::Error::success();
  }
  if (!Action.Ran || RetryConstants)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Failure.hasError() ? Failure.text() : "cannot parse " + FilePath.str());
  return llvm::Error::success();
}

/// A name that may call an atomic add or subtract: atomicAdd and its
/// _block/_system forms, atomicSub, and aliases such as gpuAtomicAdd or
/// atomic_add (any case, underscores ignored). Not `std::atomic`: the
/// headers a torch extension reads are full of it.
static bool isAtomicName(llvm::StringRef Name) {
  std::string Folded;
  for (char C : Name)
    if (C != '_')
      Folded += llvm::toLower(C);
  llvm::StringRef F(Folded);
  return F.contains("atomicadd") || F.contains("atomicsub");
}

bool mentionsAtomics(llvm::StringRef Code) {
  LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus17 = true;
  Lexer Lex(SourceLocation(), Opts, Code.begin(), Code.begin(), Code.end());
  Token Tok;
  do {
    Lex.LexFromRawLexer(Tok);
    if (Tok.is(tok::raw_identifier) && isAtomicName(Tok.getRawIdentifier()))
      return true;
  } while (Tok.isNot(tok::eof));
  return false;
}

namespace {

/// Lexes the whole translation unit, watching the tokens that reach code
/// outside the system headers.
class ScanAction : public PreprocessorFrontendAction {
public:
  explicit ScanAction(TokenScan &Out) : Out(Out) {}

  void ExecuteAction() override {
    Preprocessor &PP = getCompilerInstance().getPreprocessor();
    auto Deps = std::make_shared<EveryFileCollector>();
    Deps->attachToPreprocessor(PP);
    const SourceManager &SM = PP.getSourceManager();
    PP.setTokenWatcher([&](const Token &Tok) {
      if (Out.MayHaveAtomics || !Tok.is(tok::identifier))
        return;
      if (isAtomicName(Tok.getIdentifierInfo()->getName()) &&
          !SM.isInSystemHeader(SM.getExpansionLoc(Tok.getLocation())))
        Out.MayHaveAtomics = true;
    });
    PP.EnterMainSourceFile();
    Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(tok::eof));
    PP.setTokenWatcher(nullptr);
    Deps->finishedMainFile(PP.getDiagnostics());
    Out.FilesRead = readFiles(*Deps, getCurrentFile());
  }

private:
  TokenScan &Out;
};

} // namespace

llvm::Expected<TokenScan> scanTokens(llvm::StringRef FilePath,
                                     llvm::StringRef Code,
                                     const FrontEnd &Options) {
  ParseSetup S(FilePath, Code);
  if (llvm::Error E = setUpParse(S, FilePath, Options))
    return std::move(E);
  TokenScan Scan;
  ScanAction Action(Scan);
  runAction(S.Inv, S.FS.Spelling, Action, S.Failure);
  // A file the preprocessor rejects gets the full parse and its message.
  if (S.Failure.hasError())
    Scan.MayHaveAtomics = true;
  return Scan;
}

} // namespace distwar
