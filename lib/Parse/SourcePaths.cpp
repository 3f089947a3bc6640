//===- SourcePaths.cpp - the paths of the files a parse read --------------===//

#include "Parse/SourcePaths.h"
#include "distwar-rewrite/Paths.h"
#include "llvm/Support/Path.h"

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

std::optional<Inclusion> inclusionSpelling(const SourceManager &SM,
                                           SourceLocation Hash,
                                           llvm::StringRef FileName,
                                           bool IsAngled,
                                           llvm::StringRef SearchPath) {
  OptionalFileEntryRef From = SM.getFileEntryRefForID(SM.getFileID(Hash));
  if (!From)
    return std::nullopt;
  std::string Includer = absoluteFilePath(SM.getFileManager(), *From);
  bool Beside = !IsAngled && llvm::sys::path::parent_path(Includer) ==
                                 absolutePath(SearchPath);
  return Inclusion{FileName.str(), std::move(Includer), Beside};
}

} // namespace distwar
