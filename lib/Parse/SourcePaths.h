//===- SourcePaths.h - the paths of the files a parse read ------*- C++ -*-===//

#ifndef DISTWAR_PARSE_SOURCEPATHS_H
#define DISTWAR_PARSE_SOURCEPATHS_H

#include "distwar-rewrite/Inclusion.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include <optional>
#include <string>

namespace distwar {

/// The absolute path of \p File: its real path, else its name made absolute
/// against the parse's working directory (-working-directory).
std::string absoluteFilePath(const clang::FileManager &FM,
                             clang::FileEntryRef File);
std::string absoluteFilePath(const clang::SourceManager &SM,
                             clang::FileID File);

/// How the `#include` whose `#` is at \p Hash, spelling \p FileName and
/// found in \p SearchPath, reached its file; nullopt when it is not written
/// in a file (a command-line include).
std::optional<Inclusion> inclusionSpelling(const clang::SourceManager &SM,
                                           clang::SourceLocation Hash,
                                           llvm::StringRef FileName,
                                           bool IsAngled,
                                           llvm::StringRef SearchPath);

} // namespace distwar

#endif
