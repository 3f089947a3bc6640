//===- SourcePaths.cpp - the paths of the files a parse read --------------===//

#include "Parse/SourcePaths.h"
#include "distwar-rewrite/Paths.h"

using namespace clang;

namespace distwar {

std::string absoluteFilePath(const FileManager &FM, FileEntryRef File) {
  llvm::StringRef Real = File.getFileEntry().tryGetRealPathName();
  if (!Real.empty())
    return Real.str();
  return absolutePath(File.getName(), FM.getFileSystemOpts().WorkingDir);
}

std::string absoluteFilePath(const SourceManager &SM, FileID File) {
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(File);
  return FE ? absoluteFilePath(SM.getFileManager(), *FE) : "";
}

} // namespace distwar
