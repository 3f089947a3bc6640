//===- PchCache.h - precompiled CUDA headers, kept across runs --*- C++ -*-===//
//
// Every CUDA parse starts with the same headers: Clang's CUDA runtime
// wrapper (the SDK's runtime and math headers) and the front end's nvcc
// declarations (CudaArgs.h), about half a second of parsing per file; most
// kernel files add CUDA headers of their own (cooperative groups, CUB). They
// are precompiled once per front-end command line (toolkit, arch, flags,
// working directory, Clang version) and set of CUDA headers into a per-user
// cache directory, as clangd keeps preambles. An entry is written under a
// unique name and renamed into place, so parallel runs never see a partial one;
// it lists the files it was built from (size and time), and any change rebuilds
// it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_PCHCACHE_H
#define DISTWAR_REWRITE_PCHCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <optional>
#include <string>

namespace clang {
class CompilerInvocation;
}

namespace distwar {

struct PrecompiledHeader {
  std::string Path;
  /// What the hoisted headers (HoistedHeaders.h) spell; null without any.
  std::shared_ptr<const llvm::StringSet<>> Names;
};

/// Points \p Inv at the precompiled header of its leading includes and of
/// \p Hoisted (CUDA headers the main file includes; their text,
/// hoistedIncludeText, must be \p FS's frontEndHoistedMain()), from
/// \p CacheDir, building it first when the cache has none that is valid.
/// Returns it, or nullopt (and \p Inv is unchanged) when none can be used:
/// no such includes, an unsafe or unwritable directory, a failed build.
/// \p CC1Args are the invocation's arguments (the cache key), \p FS the
/// file system the parse reads.
std::optional<PrecompiledHeader>
usePrecompiledHeader(llvm::StringRef CacheDir, clang::CompilerInvocation &Inv,
                     llvm::ArrayRef<std::string> CC1Args,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     llvm::ArrayRef<std::string> Hoisted);

/// Removes a cache entry that failed to load.
void discardPrecompiledHeader(llvm::StringRef Path);

/// $DISTWAR_CACHE_DIR, else $XDG_CACHE_HOME/distwar, else
/// ~/.cache/distwar; "" when none can be named.
std::string defaultCacheDir();

} // namespace distwar

#endif
