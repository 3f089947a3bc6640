//===- OutputFiles.h - every file a run writes, all or none -----*- C++ -*-===//
//
// The tool's outputs (rewritten files, edited headers, the depfile, the
// report) are checked before any is written, then staged next to their
// destinations and renamed into place: a failure while staging writes
// nothing, a signal leaves no partial file, and an input is written only
// when -i names it.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_DISTWAR_REWRITE_OUTPUTFILES_H
#define TOOLS_DISTWAR_REWRITE_OUTPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace distwar {

struct FileToWrite {
  /// As the user named it; a symbolic link is written through.
  std::string Path;
  std::string Data;
  /// An input rewritten in place (-i): it may be an input, and it keeps its
  /// owner and mode.
  bool InPlace = false;
};

class OutputFiles {
public:
  void add(FileToWrite File) { Files.push_back(std::move(File)); }

  /// An error naming the first output that names one of \p Inputs (after
  /// resolving links) without being written in place, that two outputs
  /// share, or that cannot be written (its directory included).
  llvm::Error check(llvm::ArrayRef<std::string> Inputs) const;

  /// Writes every file: each is staged next to its destination (unnamed
  /// where the file system allows, so that not even SIGKILL leaves one
  /// behind), then they are renamed into place. A failure while staging
  /// writes nothing. \p PauseMs: a pause between the two steps, for tests
  /// that send signals.
  llvm::Error commit(unsigned PauseMs = 0);

private:
  std::vector<FileToWrite> Files;
};

} // namespace distwar

#endif
