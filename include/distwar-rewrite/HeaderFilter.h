//===- HeaderFilter.h - which included files may be edited ------*- C++ -*-===//
//
// --edit-headers names files and directories whose device functions the tool
// may edit. Each allowed file gets a path relative to the entry that allows
// it: where its edited copy goes under --header-output-dir, and the stable
// prefix of its site names and table.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_HEADERFILTER_H
#define DISTWAR_REWRITE_HEADERFILTER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace distwar {

class HeaderFilter {
public:
  /// Resolves \p Entries (files or directories, relative to the current
  /// directory; symbolic links followed). An entry that does not exist is
  /// an error naming it.
  static llvm::Expected<HeaderFilter>
  create(llvm::ArrayRef<std::string> Entries);

  /// The path of \p File relative to the entry that allows it (a
  /// directory: the path below it; a file: its name), '/'-separated; nullopt
  /// when no entry allows it. The innermost directory wins, so the answer
  /// does not depend on the order of the entries.
  std::optional<std::string> relativePath(llvm::StringRef File) const;

  bool empty() const { return Dirs.empty() && Files.empty(); }

private:
  std::vector<std::string> Dirs, Files; ///< real paths
};

} // namespace distwar

#endif
