//===- PchCache.cpp - precompiled CUDA headers, kept across runs ----------===//

#include "distwar/PchCache.h"
#include "distwar/CudaArgs.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
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
                            llvm::vfs::FileSystem &FS) {
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
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

/// A directory only this user can write: another user's entries could
/// make the parse read declarations they chose.
static bool safeDirectory(llvm::StringRef Dir) {
  if (llvm::sys::fs::create_directories(Dir, /*IgnoreExisting=*/true,
                                        llvm::sys::fs::owner_all))
    return false;
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Dir, Status) ||
      !llvm::sys::fs::is_directory(Status) || Status.getUser() != ::getuid())
    return false;
  return !(Status.permissions() &
           (llvm::sys::fs::group_write | llvm::sys::fs::others_write));
}

/// One line per file the entry was built from: size, time, path.
static std::string manifest(llvm::ArrayRef<std::string> Files,
                            llvm::vfs::FileSystem &FS) {
  std::string Out;
  for (const std::string &F : Files) {
    auto Status = FS.status(F);
    if (!Status)
      return "";
    Out += std::to_string(Status->getSize()) + " " +
           std::to_string(
               Status->getLastModificationTime().time_since_epoch().count()) +
           " " + F + "\n";
  }
  return Out;
}

/// True when every file \p Manifest lists is as it was.
static bool stillValid(llvm::StringRef Manifest, llvm::vfs::FileSystem &FS) {
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Manifest.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return false;
  std::vector<std::string> Files;
  for (llvm::StringRef Line : Lines)
    Files.push_back(Line.split(' ').second.split(' ').second.str());
  return manifest(Files, FS) == Manifest;
}

namespace {
/// Every file the build reads, so that a change to any rebuilds the entry.
class InputCollector : public DependencyCollector {
  bool needSystemDependencies() override { return true; }
};
} // namespace

/// Builds the precompiled header of \p Inv's first \p Count includes into
/// \p Path, and its manifest; false when Clang reports an error.
static bool build(const CompilerInvocation &Inv, size_t Count,
                  llvm::StringRef Path, std::string &Manifest,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  auto PchInv = std::make_shared<CompilerInvocation>(Inv);
  FrontendOptions &FO = PchInv->getFrontendOpts();
  FO.ProgramAction = frontend::GeneratePCH;
  FO.OutputFile = Path.str();
  FO.Inputs = {FrontendInputFile(frontEndPchMain(), InputKind(Language::CUDA))};
  PreprocessorOptions &PP = PchInv->getPreprocessorOpts();
  PP.Includes.resize(Count);
  PP.ImplicitPCHInclude.clear();

  CompilerInstance CI(std::move(PchInv));
  CI.setVirtualFileSystem(FS);
  CI.createFileManager();
  IgnoringDiagConsumer Ignore;
  CI.createDiagnostics(&Ignore, /*ShouldOwnClient=*/false);
  CI.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());
  CI.createSourceManager();
  auto Inputs = std::make_shared<InputCollector>();
  CI.addDependencyCollector(Inputs);
  GeneratePCHAction Action;
  if (!CI.ExecuteAction(Action) || CI.getDiagnostics().hasErrorOccurred())
    return false;
  Manifest = manifest(Inputs->getDependencies(), *FS);
  return !Manifest.empty();
}

/// Keeps the newest MaxEntries entries of \p Dir.
static void evictOld(llvm::StringRef Dir) {
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Entries;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    llvm::sys::fs::file_status S;
    if (Name.starts_with("cuda-") && Name.ends_with(".pch") &&
        !llvm::sys::fs::status(It->path(), S))
      Entries.push_back({S.getLastModificationTime(), It->path()});
  }
  if (Entries.size() <= MaxEntries)
    return;
  llvm::sort(Entries);
  for (size_t I = 0; I + MaxEntries < Entries.size(); ++I)
    discardPrecompiledHeader(Entries[I].second);
}

/// Writes \p Data to \p Path through a unique temporary and a rename.
static bool writeEntryFile(llvm::StringRef Path, llvm::StringRef Data) {
  llvm::SmallString<256> Temp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + "-%%%%%%%%.tmp", FD, Temp))
    return false;
  llvm::sys::RemoveFileOnSignal(Temp);
  bool Ok;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Data;
    OS.close();
    Ok = !OS.has_error();
  }
  Ok = Ok && !llvm::sys::fs::rename(Temp, Path);
  if (!Ok)
    llvm::sys::fs::remove(Temp);
  llvm::sys::DontRemoveFileOnSignal(Temp);
  return Ok;
}

/// Builds the entry \p Pch (with its manifest \p Inputs); false on failure.
static bool addEntry(const CompilerInvocation &Inv, size_t Count,
                     llvm::StringRef Pch, llvm::StringRef Inputs,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  llvm::SmallString<256> Temp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Pch + "-%%%%%%%%.tmp", FD, Temp))
    return false;
  ::close(FD);
  llvm::sys::RemoveFileOnSignal(Temp);
  std::string Manifest;
  // The manifest goes first: a reader that finds the header finds it.
  bool Ok = build(Inv, Count, Temp, Manifest, FS) &&
            writeEntryFile(Inputs, Manifest) &&
            !llvm::sys::fs::rename(Temp, Pch);
  if (!Ok)
    llvm::sys::fs::remove(Temp);
  llvm::sys::DontRemoveFileOnSignal(Temp);
  return Ok;
}

std::optional<std::string>
usePrecompiledHeader(llvm::StringRef CacheDir, CompilerInvocation &Inv,
                     llvm::ArrayRef<std::string> CC1Args,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  PreprocessorOptions &PP = Inv.getPreprocessorOpts();
  size_t Count = frontEndIncludes(PP.Includes);
  if (Count == 0 || !PP.ImplicitPCHInclude.empty() || !safeDirectory(CacheDir))
    return std::nullopt;
  std::string Key = cacheKey(CC1Args, Inv, *FS);
  llvm::SmallString<256> Pch(CacheDir), Inputs(CacheDir);
  llvm::sys::path::append(Pch, "cuda-" + Key + ".pch");
  llvm::sys::path::append(Inputs, "cuda-" + Key + ".inputs");
  auto Manifest = llvm::MemoryBuffer::getFile(Inputs);
  bool Valid = Manifest && llvm::sys::fs::exists(Pch) &&
               stillValid((*Manifest)->getBuffer(), *FS);
  if (!Valid) {
    if (!addEntry(Inv, Count, Pch, Inputs, FS))
      return std::nullopt;
    evictOld(CacheDir);
  }
  PP.Includes.erase(PP.Includes.begin(), PP.Includes.begin() + Count);
  PP.ImplicitPCHInclude = std::string(Pch);
  return std::string(Pch);
}

void discardPrecompiledHeader(llvm::StringRef Path) {
  llvm::sys::fs::remove(Path);
  llvm::SmallString<256> Inputs(Path);
  llvm::sys::path::replace_extension(Inputs, "inputs");
  llvm::sys::fs::remove(Inputs);
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
