//===- CacheFiles.h - entries of the parse cache on disk --------*- C++ -*-===//
//
// What the two kinds of cache entry (PrecompiledHeaders.h's CUDA headers,
// Preamble.h's leading includes of one file) share: a directory only this
// user can write, entries written under a unique name and renamed into
// place so that parallel runs never see a partial one, sidecar files next to
// each entry, a manifest of the files it was built from (size and time; any
// change rebuilds it), and a bound on the entries kept.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_CACHEFILES_H
#define DISTWAR_PARSE_CACHEFILES_H

#include "clang/Frontend/Utils.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class CompilerInvocation;
class FrontendAction;
} // namespace clang

namespace distwar {

/// Creates \p Dir when missing; false unless only this user can write it:
/// another user's entries could make the parse read declarations they chose.
bool safeCacheDirectory(llvm::StringRef Dir);

/// One line per file: size, time, path; "" when one cannot be read.
std::string cacheManifest(llvm::ArrayRef<std::string> Files,
                          llvm::vfs::FileSystem &FS);

/// True when every file \p Manifest lists is as it was.
bool cacheManifestStillValid(llvm::StringRef Manifest,
                             llvm::vfs::FileSystem &FS);

/// Writes \p Data to \p Path through a unique temporary and a rename.
bool writeCacheFile(llvm::StringRef Path, llvm::StringRef Data);

/// The file next to the entry \p Entry with extension \p Extension.
std::string cacheSidecar(llvm::StringRef Entry, llvm::StringRef Extension);

/// Removes the entry \p Entry and its sidecars \p Extensions.
void removeCacheEntry(llvm::StringRef Entry,
                      llvm::ArrayRef<llvm::StringRef> Extensions);

/// Keeps the newest \p MaxEntries entries of \p Dir whose names start with
/// \p Prefix and end in ".pch", and no more of them than fit in \p MaxBytes
/// together (the newest is always kept); \p Extensions are their sidecars.
void evictOldCacheEntries(llvm::StringRef Dir, llvm::StringRef Prefix,
                          size_t MaxEntries, uint64_t MaxBytes,
                          llvm::ArrayRef<llvm::StringRef> Extensions);

/// Every file a build reads, system headers included, so that a change to
/// any rebuilds the entry.
class CacheInputCollector : public clang::DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

/// Runs \p Action, the precompiled header build of \p Inv, with Clang's
/// diagnostics ignored; false when it reports an error. \p Read: every file
/// the build read.
bool buildCacheEntry(std::shared_ptr<clang::CompilerInvocation> Inv,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     clang::FrontendAction &Action,
                     std::vector<std::string> &Read);

/// (extension, contents) of the files next to an entry.
using CacheSidecars = std::vector<std::pair<std::string, std::string>>;

/// Adds the entry \p Entry: \p Build writes it to the temporary path it is
/// given and names its sidecars, which are written first, so that a reader
/// that finds the entry finds them; false when any step fails.
bool addCacheEntry(
    llvm::StringRef Entry,
    llvm::function_ref<bool(llvm::StringRef Temp, CacheSidecars &Sidecars)>
        Build);

} // namespace distwar

#endif
