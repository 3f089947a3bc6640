//===- Preamble.h - a file's leading includes, parsed once ------*- C++ -*-===//
//
// A torch extension's kernel file starts with a few lines of #include that
// Clang takes seconds to a minute to parse, and a build rewrites the file
// again whenever it changes below them. The file's preamble (its leading
// comments and preprocessor directives, as clangd and libclang take it:
// Lexer::ComputePreamble) is precompiled once into the cache directory of
// PchCache.h, chained onto the entry of the CUDA headers there, and a later
// parse of the same file starts after it. Only its leading includes of
// system headers (torch's, the SDK's, the C++ library's) go in: the user's
// own headers are what the rewrite finds atomics in and edits, and the
// parse reads them itself (their tokens, declarations and includes). A parse
// through it is the parse of the whole file: the entry is keyed by the
// preamble's exact bytes, the file's path (quote includes are found next to
// it), the front-end command line, Clang's and the tool's builds, and it lists
// every file it read with its size and time, any change to which rebuilds it.
// Host-only function bodies of system headers are skipped (SkippedBodies.h), in
// this build as in the parse without a cache.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_PREAMBLE_H
#define DISTWAR_PARSE_PREAMBLE_H

#include "Parse/ParsedFile.h"
#include "distwar-rewrite/Inclusion.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
class FileManager;
} // namespace clang

namespace distwar {

/// An #include the preamble's build resolved: its spelling and the file it
/// reached (a parse through the preamble never sees the directive).
struct PreambleInclusion {
  Inclusion Spelling;
  std::string File;
};

struct CachedPreamble {
  std::string Path;
  std::vector<PreambleInclusion> Inclusions;
};

/// Points \p Inv (the invocation of \p MainPath, whose text as the parse
/// reads it is \p MainText) at the precompiled preamble of the file in
/// \p CacheDir, building it first when the cache has none that is valid.
/// Returns it, or nullopt (and \p Inv is unchanged) when none is worth
/// having or can be had: a preamble without an #include the CUDA headers'
/// entry does not already hold (HoistedHeaders.h), an unsafe or unwritable
/// directory, a build that reports an error. \p CC1Args are the
/// invocation's arguments, \p FS the file system the parse reads.
std::optional<CachedPreamble>
useCachedPreamble(llvm::StringRef CacheDir, clang::CompilerInvocation &Inv,
                  llvm::ArrayRef<std::string> CC1Args,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                  llvm::StringRef MainPath, llvm::StringRef MainText);

/// Appends \p Preamble's inclusions, with the files they reached, to \p Out.
void replayPreambleInclusions(const CachedPreamble &Preamble,
                              clang::FileManager &FM,
                              std::vector<ParsedFile::ResolvedInclusion> &Out);

/// Removes a preamble that failed to load.
void discardCachedPreamble(llvm::StringRef Path);

} // namespace distwar

#endif
