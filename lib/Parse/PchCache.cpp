//===- PchCache.cpp - precompiled CUDA headers, kept across runs ----------===//

#include "distwar-rewrite/PchCache.h"
#include "Parse/CacheFiles.h"
#include "Parse/FrontEndFiles.h"
#include "Parse/HoistedHeaders.h"
#include "Parse/PrecompiledHeaders.h"
#include "Parse/SkippedBodies.h"
#include "distwar-rewrite/CudaArgs.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>

using namespace clang;

namespace distwar {

/// Entries kept; the oldest beyond it are removed when one is added.
static constexpr size_t MaxEntries = 32;
/// The files next to each entry: its manifest, what its hoisted headers
/// spell, the macros they define and the files whose parse through it was
/// found unsound.
static constexpr llvm::StringRef Sidecars[] = {"inputs", "names", "macros",
                                               "refused"};

/// How many of \p Includes lead the list and belong to the front end (the
/// CUDA wrapper, the nvcc declarations): what a precompiled header holds.
static size_t frontEndIncludes(const std::vector<std::string> &Includes) {
  size_t N = 0;
  while (N < Includes.size() &&
         (Includes[N] == "__clang_cuda_runtime_wrapper.h" ||
          isFrontEndFile(Includes[N])))
    ++N;
  return N;
}

/// The key: everything that can change what the leading includes parse to.
/// The file's own name, main-file name and CUDA id are left out, so the
/// files of one build share an entry.
static std::string cacheKey(llvm::ArrayRef<std::string> CC1Args,
                            const CompilerInvocation &Inv,
                            llvm::vfs::FileSystem &FS,
                            const Hoisting &Hoisted) {
  llvm::SHA1 Hash;
  auto Add = [&](llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
  };
  Add(getClangFullVersion());
  std::string MainFile;
  if (!Inv.getFrontendOpts().Inputs.empty())
    MainFile = Inv.getFrontendOpts().Inputs.front().getFile().str();
  for (size_t I = 0; I < CC1Args.size(); ++I) {
    llvm::StringRef A = CC1Args[I];
    if (A == "-main-file-name") {
      ++I;
      continue;
    }
    if (A == MainFile || A.starts_with("-cuid="))
      continue;
    Add(A);
  }
  if (auto Cwd = FS.getCurrentWorkingDirectory())
    Add(*Cwd);
  Add(frontEndFileText());
  Add(hoistedIncludeText(Hoisted));
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

namespace {
/// Builds the precompiled header, noting the files read for the main file's
/// own includes (the hoisted headers) and the macros defined there: what
/// they spell and define is what HoistCheck compares the user's code with.
class BuildAction : public GeneratePCHAction {
public:
  BuildAction(std::string &Names, std::string &Macros)
      : Names(Names), Macros(Macros) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<Entered>(
        CI.getSourceManager(), Hoisted, Sections, Macros));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef In) override {
    return withBodySkipper(GeneratePCHAction::CreateASTConsumer(CI, In),
                           CI.getSourceManager());
  }

  void EndSourceFileAction() override {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    std::vector<std::vector<llvm::StringRef>> Buffers(Sections);
    for (const auto &[F, Section] : Hoisted)
      Buffers[Section].push_back(SM.getBufferData(F));
    for (size_t I = 0; I < Buffers.size(); ++I)
      Names += (I ? "#\n" : "") + spelledIdentifiers(Buffers[I]);
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  /// Files entered, each with the main file's #include it is first read
  /// for, and macros defined, once the main file's own text is read (after
  /// the predefines and the command line's includes).
  class Entered : public PPCallbacks {
  public:
    Entered(const SourceManager &SM,
            std::vector<std::pair<FileID, size_t>> &Out, size_t &Sections,
            std::string &Macros)
        : SM(SM), Out(Out), Sections(Sections), Macros(Macros) {}
    void InclusionDirective(SourceLocation Hash, const Token &, llvm::StringRef,
                            bool, CharSourceRange, OptionalFileEntryRef,
                            llvm::StringRef, llvm::StringRef, const Module *,
                            bool, SrcMgr::CharacteristicKind) override {
      if (InMainText && SM.getFileID(Hash) == SM.getMainFileID())
        ++Sections;
    }
    void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                     SrcMgr::CharacteristicKind, FileID) override {
      FileID Now = SM.getFileID(Loc);
      if (Reason == ExitFile && Now == SM.getMainFileID())
        InMainText = true;
      else if (Reason == EnterFile && InMainText && Now.isValid() && Sections)
        Out.emplace_back(Now, Sections - 1);
    }
    void MacroDefined(const Token &Name, const MacroDirective *) override {
      if (InMainText)
        Macros += Name.getIdentifierInfo()->getName().str() + "\n";
    }

  private:
    const SourceManager &SM;
    std::vector<std::pair<FileID, size_t>> &Out;
    size_t &Sections;
    std::string &Macros;
    bool InMainText = false;
  };

  std::string &Names, &Macros;
  std::vector<std::pair<FileID, size_t>> Hoisted;
  size_t Sections = 0; ///< the main file's #includes
};
} // namespace

/// Builds the precompiled header of \p Inv's first \p Count includes and of
/// \p Hoisted into \p Path, its manifest and what the hoisted headers spell;
/// false when Clang reports an error.
static bool build(const CompilerInvocation &Inv, size_t Count,
                  const Hoisting &Hoisted, llvm::StringRef Path,
                  std::string &Manifest, std::string &Names,
                  std::string &Macros,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  auto PchInv = std::make_shared<CompilerInvocation>(Inv);
  FrontendOptions &FO = PchInv->getFrontendOpts();
  FO.ProgramAction = frontend::GeneratePCH;
  FO.OutputFile = Path.str();
  FO.SkipFunctionBodies = true; // those SkippedBodies.h names
  FO.Inputs = {FrontendInputFile(
      Hoisted.empty() ? frontEndPchMain()
                      : frontEndHoistedMain(hoistedIncludeText(Hoisted)),
      InputKind(Language::CUDA))};
  PreprocessorOptions &PP = PchInv->getPreprocessorOpts();
  PP.Includes.resize(Count);
  PP.ImplicitPCHInclude.clear();

  BuildAction Action(Names, Macros);
  std::vector<std::string> Read;
  if (!buildCacheEntry(std::move(PchInv), FS, Action, Read))
    return false;
  Manifest = cacheManifest(Read, *FS);
  return !Manifest.empty();
}

/// Builds the entry \p Pch (with its sidecars); false on failure.
static bool addEntry(const CompilerInvocation &Inv, size_t Count,
                     const Hoisting &Hoisted, llvm::StringRef Pch,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  return addCacheEntry(Pch, [&](llvm::StringRef Temp, CacheSidecars &Out) {
    std::string Manifest, Names, Macros;
    if (!build(Inv, Count, Hoisted, Temp, Manifest, Names, Macros, FS))
      return false;
    Out = {{"names", std::move(Names)},
           {"macros", std::move(Macros)},
           {"inputs", std::move(Manifest)}};
    return true;
  });
}

/// The names, one per line, of the entry's sidecar \p Sidecar ("names":
/// what its hoisted headers spell, a "#" line between two headers';
/// "macros": the macros they define), all of them and each header's, or
/// nulls when it hoists none.
static std::pair<std::shared_ptr<const llvm::StringSet<>>,
                 std::shared_ptr<const std::vector<llvm::StringSet<>>>>
sidecarNames(llvm::StringRef Pch, llvm::StringRef Sidecar, bool Hoists) {
  auto Buffer = llvm::MemoryBuffer::getFile(cacheSidecar(Pch, Sidecar));
  if (!Hoists || !Buffer)
    return {};
  auto All = std::make_shared<llvm::StringSet<>>();
  auto Each = std::make_shared<std::vector<llvm::StringSet<>>>(1);
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef L : Lines) {
    if (L == "#") {
      Each->emplace_back();
      continue;
    }
    All->insert(L);
    Each->back().insert(L);
  }
  return {All, Each};
}

std::optional<PrecompiledHeader>
usePrecompiledHeader(llvm::StringRef CacheDir, CompilerInvocation &Inv,
                     llvm::ArrayRef<std::string> CC1Args,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     const Hoisting &Hoisted) {
  PreprocessorOptions &PP = Inv.getPreprocessorOpts();
  size_t Count = frontEndIncludes(PP.Includes);
  if (Count == 0 || !PP.ImplicitPCHInclude.empty() ||
      !safeCacheDirectory(CacheDir))
    return std::nullopt;
  std::string Key = cacheKey(CC1Args, Inv, *FS, Hoisted);
  llvm::SmallString<256> Pch(CacheDir);
  llvm::sys::path::append(Pch, "cuda-" + Key + ".pch");
  auto Manifest = llvm::MemoryBuffer::getFile(cacheSidecar(Pch, "inputs"));
  bool Valid = Manifest && llvm::sys::fs::exists(Pch) &&
               llvm::sys::fs::exists(cacheSidecar(Pch, "macros")) &&
               cacheManifestStillValid((*Manifest)->getBuffer(), *FS);
  if (!Valid) {
    // What was refused with the old headers may not be with the new.
    llvm::sys::fs::remove(cacheSidecar(Pch, "refused"));
    if (!addEntry(Inv, Count, Hoisted, Pch, FS))
      return std::nullopt;
    evictOldCacheEntries(CacheDir, "cuda-", MaxEntries, UINT64_MAX, Sidecars);
  }
  bool Hoists = !Hoisted.empty();
  auto [Names, HeaderNames] = sidecarNames(Pch, "names", Hoists);
  PrecompiledHeader Out{std::string(Pch), Names,
                        sidecarNames(Pch, "macros", Hoists).first, HeaderNames};
  if (Hoists && (!Out.Names || !Out.Macros))
    return std::nullopt;
  PP.Includes.erase(PP.Includes.begin(), PP.Includes.begin() + Count);
  PP.ImplicitPCHInclude = Out.Path;
  return Out;
}

/// The line that stands for the file \p FilePath of text \p Code in an
/// entry's "refused" sidecar.
static std::string refusalKey(llvm::StringRef FilePath, llvm::StringRef Code) {
  llvm::SHA1 Hash;
  Hash.update(FilePath);
  Hash.update(llvm::ArrayRef<uint8_t>{0});
  Hash.update(Code);
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

bool refusedBefore(const PrecompiledHeader &Pch, llvm::StringRef FilePath,
                   llvm::StringRef Code) {
  auto Buffer = llvm::MemoryBuffer::getFile(cacheSidecar(Pch.Path, "refused"));
  if (!Buffer)
    return false;
  std::string Key = refusalKey(FilePath, Code);
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  return llvm::is_contained(Lines, Key);
}

void noteRefused(const PrecompiledHeader &Pch, llvm::StringRef FilePath,
                 llvm::StringRef Code) {
  // One short line appended: concurrent runs do not tear it.
  std::error_code EC;
  llvm::raw_fd_ostream Out(cacheSidecar(Pch.Path, "refused"), EC,
                           llvm::sys::fs::OF_Append);
  if (!EC)
    Out << refusalKey(FilePath, Code) << "\n";
}

void discardPrecompiledHeader(llvm::StringRef Path) {
  removeCacheEntry(Path, Sidecars);
}

std::string defaultCacheDir() {
  if (std::optional<std::string> Dir =
          llvm::sys::Process::GetEnv("DISTWAR_CACHE_DIR"))
    return *Dir;
  llvm::SmallString<256> Dir;
  if (std::optional<std::string> Xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && llvm::sys::path::is_absolute(*Xdg))
    Dir = *Xdg;
  else if (llvm::sys::path::home_directory(Dir))
    llvm::sys::path::append(Dir, ".cache");
  else
    return "";
  llvm::sys::path::append(Dir, "distwar");
  return std::string(Dir);
}

} // namespace distwar
