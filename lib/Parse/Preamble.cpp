//===- Preamble.cpp - a file's leading includes, parsed once --------------===//

#include "Parse/Preamble.h"
#include "Parse/CacheFiles.h"
#include "Parse/FrontEndFiles.h"
#include "Parse/HoistedHeaders.h"
#include "Parse/LeadingIncludes.h"
#include "Parse/PrecompiledHeaders.h"
#include "Parse/SkippedBodies.h"
#include "Parse/SourcePaths.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/Signals.h"
#include <unistd.h>

using namespace clang;

namespace distwar {

/// Preambles kept, and their bytes together: a torch extension's
/// preambles are a few hundred megabytes each.
static constexpr size_t MaxPreambles = 24;
static constexpr uint64_t MaxPreambleBytes = uint64_t(4) << 30;
/// The files next to each entry: its manifest and its resolved includes.
static constexpr llvm::StringRef PreambleSidecars[] = {"inputs", "includes"};

/// The leading directives of \p Text that can only read system headers:
/// they end before the first `#include` of a header of the user's (which
/// the parse must read itself: its tokens and declarations are what the
/// rewrite edits), of a computed name, or of one under a conditional.
struct SystemPrefix {
  size_t Size = 0;
  size_t Includes = 0; ///< the #include directives among them
};

static SystemPrefix systemPrefix(llvm::StringRef Text, llvm::StringRef MainDir,
                                 const HeaderSearchOptions &Search,
                                 llvm::vfs::FileSystem &FS) {
  SystemPrefix Out;
  bool Whole = true;
  scanDirectives(
      Text, [](const Token &) { return true; },
      [&](llvm::StringRef Name, llvm::StringRef Rest) {
        // The directive's line starts the part that may not go in.
        size_t LineStart = Text.rfind('\n', Rest.data() - Text.data());
        Out.Size = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
        if (Name.starts_with("if") || Name.starts_with("el") ||
            Name == "endif" || Name == "include_next")
          return Whole = false;
        if (Name != "include" && Name != "import")
          return true;
        std::optional<IncludedName> Included = includedName(Rest);
        std::optional<FoundHeader> Header =
            Included ? findHeader(Included->Name, Included->Angled, MainDir,
                                  Search, FS)
                     : std::nullopt;
        if (!Header || !Header->InSystemDirectory)
          return Whole = false;
        ++Out.Includes;
        return true;
      });
  if (Whole)
    Out.Size = Text.size();
  return Out;
}

/// What identifies this build of the tool: its executable's size and time
/// (the spelling changes of NvccSpelling.h are part of what a parse reads).
static std::string toolBuildIdentity() {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(
      "distwar-rewrite", reinterpret_cast<void *>(&Anchor));
  llvm::sys::fs::file_status S;
  if (Exe.empty() || llvm::sys::fs::status(Exe, S))
    return "unknown";
  return Exe + " " + std::to_string(S.getSize()) + " " +
         std::to_string(S.getLastModificationTime().time_since_epoch().count());
}

/// The key: everything that can change what the preamble parses to, but
/// the contents of the files it reads (the manifest checks those).
static std::string preambleKey(llvm::ArrayRef<std::string> CC1Args,
                               llvm::vfs::FileSystem &FS,
                               llvm::StringRef Chained,
                               llvm::StringRef MainPath,
                               llvm::StringRef PreambleText) {
  llvm::SHA1 Hash;
  auto Add = [&](llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
  };
  Add(getClangFullVersion());
  Add(toolBuildIdentity());
  for (const std::string &A : CC1Args)
    if (!llvm::StringRef(A).starts_with("-cuid="))
      Add(A);
  if (auto Cwd = FS.getCurrentWorkingDirectory())
    Add(*Cwd);
  Add(frontEndFileText());
  Add(Chained);
  Add(MainPath);
  Add(PreambleText);
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

/// One line per inclusion; the fields are separated by tabs, which no path
/// the tool accepts holds.
static std::string inclusionLine(const PreambleInclusion &I) {
  return std::string(I.Spelling.RelativeToIncluder ? "1" : "0") + "\t" +
         I.Spelling.Spelled + "\t" + I.Spelling.Includer + "\t" + I.File + "\n";
}

static std::optional<std::vector<PreambleInclusion>>
parseInclusions(llvm::StringRef Text) {
  std::vector<PreambleInclusion> Out;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 4> F;
    Line.split(F, '\t');
    if (F.size() != 4)
      return std::nullopt;
    Out.push_back({Inclusion{F[1].str(), F[2].str(), F[0] == "1"}, F[3].str()});
  }
  return Out;
}

namespace {
/// Records every #include the build resolves, as lines of inclusionLine.
class InclusionLog : public PPCallbacks {
public:
  InclusionLog(const SourceManager &SM, std::string &Out, bool &Unusable)
      : SM(SM), Out(Out), Unusable(Unusable) {}
  void InclusionDirective(SourceLocation Hash, const Token &,
                          llvm::StringRef FileName, bool IsAngled,
                          CharSourceRange, OptionalFileEntryRef File,
                          llvm::StringRef SearchPath, llvm::StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    std::optional<Inclusion> Spelling =
        inclusionSpelling(SM, Hash, FileName, IsAngled, SearchPath);
    if (!File || !Spelling)
      return;
    PreambleInclusion I{std::move(*Spelling),
                        absoluteFilePath(SM.getFileManager(), *File)};
    std::string Line = inclusionLine(I);
    Unusable |= llvm::count(Line, '\t') != 3 || llvm::count(Line, '\n') != 1;
    Out += Line;
  }

  /// A file of the user's own entered (through a system header, or a
  /// command-line include): the parse must read it itself, so the preamble
  /// is not kept.
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind Kind, FileID) override {
    if (Reason != EnterFile || Kind != SrcMgr::C_User)
      return;
    FileID Entered = SM.getFileID(Loc);
    OptionalFileEntryRef File = SM.getFileEntryRefForID(Entered);
    if (File && Entered != SM.getMainFileID() &&
        !isFrontEndFile(File->getName()))
      Unusable = true;
  }

private:
  const SourceManager &SM;
  std::string &Out;
  bool &Unusable;
};

/// Writes the preamble's PCH; skips the bodies SkippedBodies.h names and
/// logs the includes.
class PreambleBuildAction : public GeneratePCHAction {
public:
  explicit PreambleBuildAction(std::string &Inclusions)
      : Inclusions(Inclusions) {}
  bool Unusable = false;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef In) override {
    return withBodySkipper(GeneratePCHAction::CreateASTConsumer(CI, In),
                           CI.getSourceManager());
  }

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<InclusionLog>(
        CI.getSourceManager(), Inclusions, Unusable));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }

private:
  std::string &Inclusions;
};
} // namespace

/// Builds the preamble \p PreambleText of \p Inv's main file \p MainPath
/// into \p Out, with its manifest and inclusions; false when Clang reports
/// an error.
static bool buildPreamble(const CompilerInvocation &Inv,
                          llvm::StringRef MainPath,
                          llvm::StringRef PreambleText, llvm::StringRef Out,
                          std::string &Manifest, std::string &Inclusions,
                          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  auto PchInv = std::make_shared<CompilerInvocation>(Inv);
  FrontendOptions &FO = PchInv->getFrontendOpts();
  FO.ProgramAction = frontend::GeneratePCH;
  FO.OutputFile = Out.str();
  FO.SkipFunctionBodies = true;
  PreprocessorOptions &PP = PchInv->getPreprocessorOpts();
  PP.PrecompiledPreambleBytes = {0, false};
  // The preamble may end inside a conditional block: its state is kept.
  PP.GeneratePreamble = true;
  PP.RetainRemappedFileBuffers = false; // the instance frees the buffer
  PP.addRemappedFile(
      MainPath,
      llvm::MemoryBuffer::getMemBufferCopy(PreambleText, MainPath).release());

  PreambleBuildAction Action(Inclusions);
  std::vector<std::string> All;
  if (!buildCacheEntry(std::move(PchInv), FS, Action, All) || Action.Unusable)
    return false;
  std::vector<std::string> Read;
  for (llvm::StringRef F : All)
    if (F != MainPath && !isFrontEndFile(F))
      Read.push_back(F.str());
  Manifest = cacheManifest(Read, *FS);
  return !Manifest.empty();
}

/// Builds the entry \p Pch with its sidecars; false on failure.
static bool
addPreambleEntry(const CompilerInvocation &Inv, llvm::StringRef MainPath,
                 llvm::StringRef PreambleText, llvm::StringRef Pch,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  return addCacheEntry(Pch, [&](llvm::StringRef Temp, CacheSidecars &Out) {
    std::string Manifest, Inclusions;
    if (!buildPreamble(Inv, MainPath, PreambleText, Temp, Manifest, Inclusions,
                       FS))
      return false;
    Out = {{"includes", std::move(Inclusions)},
           {"inputs", std::move(Manifest)}};
    return true;
  });
}

/// The inclusions of a valid entry \p Pch, or nullopt.
static std::optional<std::vector<PreambleInclusion>>
validPreambleEntry(llvm::StringRef Pch, llvm::vfs::FileSystem &FS) {
  auto Manifest = llvm::MemoryBuffer::getFile(cacheSidecar(Pch, "inputs"));
  auto Includes = llvm::MemoryBuffer::getFile(cacheSidecar(Pch, "includes"));
  if (!Manifest || !Includes || !llvm::sys::fs::exists(Pch) ||
      !cacheManifestStillValid((*Manifest)->getBuffer(), FS))
    return std::nullopt;
  return parseInclusions((*Includes)->getBuffer());
}

std::optional<CachedPreamble>
useCachedPreamble(llvm::StringRef CacheDir, CompilerInvocation &Inv,
                  llvm::ArrayRef<std::string> CC1Args,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                  llvm::StringRef MainPath, llvm::StringRef MainText) {
  PreambleBounds Bounds = ComputePreambleBounds(
      Inv.getLangOpts(), llvm::MemoryBufferRef(MainText, MainPath), 0);
  // The lexers below read up to a terminating NUL.
  std::string Text = MainText.take_front(Bounds.Size).str();
  SystemPrefix Prefix =
      systemPrefix(Text, llvm::sys::path::parent_path(MainPath),
                   Inv.getHeaderSearchOpts(), *FS);
  if (Prefix.Size < Text.size()) {
    Text.resize(Prefix.Size);
    Bounds = PreambleBounds(Prefix.Size, /*PreambleEndsAtStartOfLine=*/true);
  }
  if (Prefix.Includes == 0 ||
      Prefix.Includes ==
          hoistableIncludes(Text, Inv.getHeaderSearchOpts(), *FS).size())
    return std::nullopt;
  if (!Inv.getPreprocessorOpts().ImplicitPCHInclude.empty() ||
      !safeCacheDirectory(CacheDir))
    return std::nullopt;
  // Chained onto the CUDA headers' entry, which the files of a build share.
  auto Chained = std::make_shared<CompilerInvocation>(Inv);
  std::optional<PrecompiledHeader> Cuda =
      usePrecompiledHeader(CacheDir, *Chained, CC1Args, FS, {});
  std::string Key =
      preambleKey(CC1Args, *FS, Cuda ? Cuda->Path : "", MainPath, Text);
  llvm::SmallString<256> Pch(CacheDir);
  llvm::sys::path::append(Pch, "preamble-" + Key + ".pch");
  std::optional<std::vector<PreambleInclusion>> Inclusions =
      validPreambleEntry(Pch, *FS);
  if (!Inclusions) {
    if (!addPreambleEntry(*Chained, MainPath, Text, Pch, FS))
      return std::nullopt;
    evictOldCacheEntries(CacheDir, "preamble-", MaxPreambles, MaxPreambleBytes,
                         PreambleSidecars);
    Inclusions = validPreambleEntry(Pch, *FS);
    if (!Inclusions)
      return std::nullopt;
  }
  // As clang::PrecompiledPreamble configures a parse through one: the
  // entry holds the predefines and the command line's includes.
  PreprocessorOptions &PP = Inv.getPreprocessorOpts();
  PP.Includes.clear();
  PP.MacroIncludes.clear();
  PP.ImplicitPCHInclude = std::string(Pch);
  PP.PrecompiledPreambleBytes = {Bounds.Size, Bounds.PreambleEndsAtStartOfLine};
  PP.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  PP.UsePredefines = false;
  return CachedPreamble{std::string(Pch), std::move(*Inclusions)};
}

/// \p Preamble's inclusions, with the files they reached.
void replayPreambleInclusions(const CachedPreamble &Preamble, FileManager &FM,
                              std::vector<ParsedFile::ResolvedInclusion> &Out) {
  for (const PreambleInclusion &I : Preamble.Inclusions) {
    llvm::Expected<FileEntryRef> File = FM.getFileRef(I.File);
    llvm::Expected<FileEntryRef> From = FM.getFileRef(I.Spelling.Includer);
    if (!File || !From) {
      llvm::consumeError(File.takeError());
      llvm::consumeError(From.takeError());
      continue;
    }
    Out.push_back({I.Spelling, &File->getFileEntry(), &From->getFileEntry()});
  }
}

void discardCachedPreamble(llvm::StringRef Path) {
  removeCacheEntry(Path, PreambleSidecars);
}

} // namespace distwar
