//===- CacheFiles.cpp - entries of the parse cache on disk ----------------===//

#include "Parse/CacheFiles.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>
#include <vector>

namespace distwar {

bool safeCacheDirectory(llvm::StringRef Dir) {
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

std::string cacheManifest(llvm::ArrayRef<std::string> Files,
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

bool cacheManifestStillValid(llvm::StringRef Manifest,
                             llvm::vfs::FileSystem &FS) {
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Manifest.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return false;
  std::vector<std::string> Files;
  for (llvm::StringRef Line : Lines)
    Files.push_back(Line.split(' ').second.split(' ').second.str());
  return cacheManifest(Files, FS) == Manifest;
}

bool writeCacheFile(llvm::StringRef Path, llvm::StringRef Data) {
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

std::string cacheSidecar(llvm::StringRef Entry, llvm::StringRef Extension) {
  llvm::SmallString<256> Path(Entry);
  llvm::sys::path::replace_extension(Path, Extension);
  return std::string(Path);
}

void removeCacheEntry(llvm::StringRef Entry,
                      llvm::ArrayRef<llvm::StringRef> Extensions) {
  llvm::sys::fs::remove(Entry);
  for (llvm::StringRef E : Extensions)
    llvm::sys::fs::remove(cacheSidecar(Entry, E));
}

void evictOldCacheEntries(llvm::StringRef Dir, llvm::StringRef Prefix,
                          size_t MaxEntries, uint64_t MaxBytes,
                          llvm::ArrayRef<llvm::StringRef> Extensions) {
  struct Entry {
    llvm::sys::TimePoint<> Time;
    uint64_t Size;
    std::string Path;
  };
  std::vector<Entry> Entries;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    llvm::sys::fs::file_status S;
    if (Name.starts_with(Prefix) && Name.ends_with(".pch") &&
        !llvm::sys::fs::status(It->path(), S))
      Entries.push_back({S.getLastModificationTime(), S.getSize(), It->path()});
  }
  // Newest first: what is kept is a prefix.
  llvm::sort(Entries,
             [](const Entry &A, const Entry &B) { return A.Time > B.Time; });
  uint64_t Bytes = 0;
  for (size_t I = 0; I < Entries.size(); ++I) {
    Bytes += Entries[I].Size;
    if (I > 0 && (I >= MaxEntries || Bytes > MaxBytes))
      removeCacheEntry(Entries[I].Path, Extensions);
  }
}

bool buildCacheEntry(std::shared_ptr<clang::CompilerInvocation> Inv,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     clang::FrontendAction &Action,
                     std::vector<std::string> &Read) {
  clang::CompilerInstance CI(std::move(Inv));
  CI.setVirtualFileSystem(FS);
  CI.createFileManager();
  clang::IgnoringDiagConsumer Ignore;
  CI.createDiagnostics(&Ignore, /*ShouldOwnClient=*/false);
  CI.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());
  CI.createSourceManager();
  auto Inputs = std::make_shared<CacheInputCollector>();
  CI.addDependencyCollector(Inputs);
  if (!CI.ExecuteAction(Action) || CI.getDiagnostics().hasErrorOccurred())
    return false;
  Read = Inputs->getDependencies();
  return true;
}

bool addCacheEntry(
    llvm::StringRef Entry,
    llvm::function_ref<bool(llvm::StringRef Temp, CacheSidecars &Sidecars)>
        Build) {
  llvm::SmallString<256> Temp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Entry + "-%%%%%%%%.tmp", FD, Temp))
    return false;
  ::close(FD);
  llvm::sys::RemoveFileOnSignal(Temp);
  CacheSidecars Sidecars;
  bool Ok = Build(Temp, Sidecars);
  for (const auto &[Extension, Contents] : Sidecars)
    Ok = Ok && writeCacheFile(cacheSidecar(Entry, Extension), Contents);
  Ok = Ok && !llvm::sys::fs::rename(Temp, Entry);
  if (!Ok)
    llvm::sys::fs::remove(Temp);
  llvm::sys::DontRemoveFileOnSignal(Temp);
  return Ok;
}

} // namespace distwar
