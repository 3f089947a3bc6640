//===- PchCache.h - precompiled CUDA headers, kept across runs --*- C++ -*-===//
//
// Every CUDA parse starts with the same headers: Clang's CUDA runtime
// wrapper (the SDK's runtime and math headers) and the front end's nvcc
// declarations (CudaArgs.h), about half a second of parsing per file. They
// are precompiled once per front-end command line (toolkit, arch, flags,
// working directory, Clang version) into a per-user cache directory, as
// clangd keeps preambles. An entry is written under a unique name and
// renamed into place, so parallel runs never see a partial one; it lists
// the files it was built from (size and time), and any change rebuilds it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PCHCACHE_H
#define DISTWAR_PCHCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>

namespace clang {
class CompilerInvocation;
}

namespace distwar {

/// Points \p Inv at the precompiled header of its leading includes, from
/// \p CacheDir, building it first when the cache has none that is valid.
/// Returns its path, or nullopt (and \p Inv is unchanged) when none can be
/// used: no such includes, an unsafe or unwritable directory, a failed
/// build. \p CC1Args are the invocation's arguments (the cache key), \p FS
/// the file system the parse reads.
std::optional<std::string>
usePrecompiledHeader(llvm::StringRef CacheDir, clang::CompilerInvocation &Inv,
                     llvm::ArrayRef<std::string> CC1Args,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS);

/// Removes a cache entry that failed to load.
void discardPrecompiledHeader(llvm::StringRef Path);

/// $DISTWAR_CACHE_DIR, else $XDG_CACHE_HOME/distwar, else
/// ~/.cache/distwar; "" when none can be named.
std::string defaultCacheDir();

} // namespace distwar

#endif
