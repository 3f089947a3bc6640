//===- TileFiles.h - the files --balance=tiles may write --------*- C++ -*-===//
//
// A balanced kernel's parameters change, and with them every launch of it:
// the pass writes the kernel's definition and each launch, so each must lie
// in a file it writes. Those are the main file and the headers that
// --edit-headers allows (their copies go where HeaderCopies says), each
// entered once (a header entered twice would repeat its edits) and, where
// the batching edited it first, read as the batching left it (its copy is
// the batched text with the tile edits on top).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_TILEFILES_H
#define DISTWAR_DECIDE_TILEFILES_H

#include "Parse/ParsedFile.h"
#include "distwar-rewrite/Diagnostics.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <string>

namespace distwar {

/// Why a file is not written, as a kernel's reason says it.
struct TileFileRefusal {
  Reason Code = Reason::None;
  /// What the file is: "a header that no --edit-headers entry names".
  std::string What;
};

class TileFiles {
public:
  /// The files of the parse \p SM holds that the pass may write: the main
  /// file; with \p Filter, each header it allows (\p Inclusions: the
  /// parse's resolved #includes, which place the copies), but for those
  /// entered twice and those of \p Stale (headers the batching edited whose
  /// parse did not read the batched text).
  TileFiles(const clang::SourceManager &SM, const HeaderFilter *Filter,
            llvm::ArrayRef<ParsedFile::ResolvedInclusion> Inclusions,
            const llvm::DenseSet<clang::FileID> &Stale = {});

  /// Only the main file of \p SM.
  explicit TileFiles(const clang::SourceManager &SM) : SM(SM) {}

  /// Whether the pass may write \p File.
  bool writable(clang::FileID File) const {
    return File == SM.getMainFileID() || Copies.count(File);
  }
  /// Why \p File is not written; Code None when it is.
  TileFileRefusal whyNot(clang::FileID File) const;
  /// The path of writable header \p File's copy, relative to the directory
  /// of the copies.
  const std::string &copyPath(clang::FileID File) const;
  /// Whether \p File holds the user's code: the main file or a header
  /// outside the system directories.
  bool isUserFile(clang::FileID File) const;

private:
  const clang::SourceManager &SM;
  std::map<clang::FileID, std::string> Copies;
  llvm::DenseSet<clang::FileID> EnteredTwice, StaleHeaders;
};

} // namespace distwar

#endif
