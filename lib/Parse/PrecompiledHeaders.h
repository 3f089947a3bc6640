//===- PrecompiledHeaders.h - CUDA headers parsed once ---------*- C++ -*-===//
//
// The entries of the cache that distwar-rewrite/PchCache.h names: one
// precompiled header per front-end command line and set of hoisted CUDA
// headers. Defined in PchCache.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_PRECOMPILEDHEADERS_H
#define DISTWAR_PARSE_PRECOMPILEDHEADERS_H

#include "Parse/HoistedHeaders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
}

namespace distwar {

struct PrecompiledHeader {
  std::string Path;
  /// What the hoisted headers (HoistedHeaders.h) spell; null without any.
  std::shared_ptr<const llvm::StringSet<>> Names;
  /// The macros they define; null without any.
  std::shared_ptr<const llvm::StringSet<>> Macros;
  /// What each of them spells in the files first read for it, in the order
  /// of the hoisted text; null without any.
  std::shared_ptr<const std::vector<llvm::StringSet<>>> HeaderNames;
};

/// Points \p Inv at the precompiled header of its leading includes and of
/// \p Hoisted (headers the file includes, and #defines between them; their
/// text, hoistedIncludeText, must be \p FS's frontEndHoistedMain()), from
/// \p CacheDir, building it first when the cache has none that is valid.
/// Returns it, or nullopt (and \p Inv is unchanged) when none can be used:
/// no such includes, an unsafe or unwritable directory, a failed build.
/// \p CC1Args are the invocation's arguments (the cache key), \p FS the
/// file system the parse reads.
std::optional<PrecompiledHeader>
usePrecompiledHeader(llvm::StringRef CacheDir, clang::CompilerInvocation &Inv,
                     llvm::ArrayRef<std::string> CC1Args,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     const Hoisting &Hoisted);

/// Whether a parse of the file \p FilePath, of text \p Code, through
/// \p Pch was found unsound (HoistCheck) before: the walk that chose its
/// headers guessed wrong, and would again.
bool refusedBefore(const PrecompiledHeader &Pch, llvm::StringRef FilePath,
                   llvm::StringRef Code);
/// Notes that it was.
void noteRefused(const PrecompiledHeader &Pch, llvm::StringRef FilePath,
                 llvm::StringRef Code);

/// Removes a cache entry that failed to load.
void discardPrecompiledHeader(llvm::StringRef Path);

} // namespace distwar

#endif
