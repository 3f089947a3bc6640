//===- HeaderCopies.h - where the copy of an allowed header goes -*- C++ -*-===//
//
// With --header-output-dir, each header --edit-headers allows is copied
// below one directory that the build puts first on the include path; the
// copy must sit where the file's #includes then find it. An #include that
// found the header through the include path (`-I<dir>`, spelled
// "grad.h" or <grad.h>) finds it at that spelling below the directory; one
// relative to its includer finds it next to the includer's copy. Where the
// #includes agree, that is the copy's path; else it is the header's path
// relative to the --edit-headers entry, and the tool checks that every
// #include still finds it (or refuses).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_HEADERCOPIES_H
#define DISTWAR_PARSE_HEADERCOPIES_H

#include "Parse/ParsedFile.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>

namespace distwar {

class HeaderCopies {
public:
  HeaderCopies(const HeaderFilter &Filter,
               llvm::ArrayRef<ParsedFile::ResolvedInclusion> Inclusions)
      : Filter(Filter), Inclusions(Inclusions) {}

  /// The path of \p File's copy (\p Path: the file, absolute) relative to
  /// the copies' directory; none when the filter does not allow the file.
  std::optional<std::string> pathOf(const clang::FileEntry *File,
                                    llvm::StringRef Path);

private:
  std::optional<std::string> pathOf(const clang::FileEntry *File,
                                    llvm::StringRef Path, unsigned Depth);
  /// The copy path every #include of \p File agrees on, or none.
  std::optional<std::string> agreedPath(const clang::FileEntry *File,
                                        llvm::StringRef Path, unsigned Depth);

  const HeaderFilter &Filter;
  llvm::ArrayRef<ParsedFile::ResolvedInclusion> Inclusions;
  llvm::DenseMap<const clang::FileEntry *, std::optional<std::string>> Known;
};

} // namespace distwar

#endif
