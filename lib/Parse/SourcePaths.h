//===- SourcePaths.h - the paths of the files a parse read ------*- C++ -*-===//

#ifndef DISTWAR_PARSE_SOURCEPATHS_H
#define DISTWAR_PARSE_SOURCEPATHS_H

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include <string>

namespace distwar {

/// The absolute path of \p File: its real path, else its name made absolute
/// against the parse's working directory (-working-directory).
std::string absoluteFilePath(const clang::FileManager &FM,
                             clang::FileEntryRef File);
std::string absoluteFilePath(const clang::SourceManager &SM,
                             clang::FileID File);

} // namespace distwar

#endif
