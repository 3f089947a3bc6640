//===- CommandLine.h - distwar-rewrite's command line as typed --*- C++ -*-===//
//
// What the tool does to its arguments before and around the option parser:
// response files, the compilation database's absence, the parser's errors,
// and its own output directory left off the include path.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TOOLS_COMMANDLINE_H
#define DISTWAR_TOOLS_COMMANDLINE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"
#include <string>
#include <vector>

namespace distwar {

/// Removes the include directories that are \p Dir (the edited headers'
/// output, which builds put first on the include path): the parse must read
/// the originals, or it would see its own output and the depfile would name
/// the copies instead of the headers the user edits.
void dropIncludeDir(std::vector<std::string> &Flags, llvm::StringRef Dir,
                    llvm::StringRef WorkDir);

/// Response files expanded; a command line with neither `--` nor `-p`
/// gets an empty `--`, so that no compilation database is searched for.
llvm::Expected<llvm::SmallVector<const char *, 64>>
expandCommandLine(int argc, const char **argv, llvm::StringSaver &Saver,
                  llvm::BumpPtrAllocator &Alloc);

/// The command line's own error, as `error:` lines (none when the option
/// library printed it itself).
int optionParserFailure(llvm::Error E);

} // namespace distwar

#endif
