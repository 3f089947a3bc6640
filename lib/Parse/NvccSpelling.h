//===- NvccSpelling.h - what nvcc accepts, spelled for Clang ----*- C++ -*-===//
//
// nvcc accepts spellings that Clang rejects: a launch written `<< <` ... `>>
// >`, a braced launch configuration `<<<g, {16, 4, 4}>>>`, and `%` followed by
// a register name in inline asm (`%lanemask_lt`). The parse reads each file
// with same-length replacements, so every source location still points at
// the user's bytes; the outputs are made from the user's original bytes.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_NVCCSPELLING_H
#define DISTWAR_PARSE_NVCCSPELLING_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <mutex>
#include <string>
#include <vector>

namespace distwar {

/// One same-length change of the text Clang parses.
struct SpellingFix {
  unsigned Offset = 0;
  std::string Original, Replacement;
};

/// The changes \p Code needs for Clang to parse what nvcc accepts. Each
/// keeps the length, so offsets (and lines) stay valid.
std::vector<SpellingFix> findNvccSpellings(llvm::StringRef Code);

/// \p Code with \p Fixes applied.
std::string applySpellingFixes(llvm::StringRef Code,
                               llvm::ArrayRef<SpellingFix> Fixes);

/// A file system whose files read as Clang must see them: the ones that
/// need fixes are served with them applied, keeping their status (size,
/// time), so precompiled headers built through it stay valid. Remembers
/// the original text of each file it changed.
class NvccSpellingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit NvccSpellingFileSystem(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base)
      : ProxyFileSystem(std::move(Base)) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override;

  /// The user's text of \p Path (as the parse named it) when this file
  /// system served it changed; nullopt when it served the bytes as they are.
  std::optional<std::string> originalText(llvm::StringRef Path) const;

private:
  mutable std::mutex Lock;
  llvm::StringMap<std::string> Originals;
};

} // namespace distwar

#endif
