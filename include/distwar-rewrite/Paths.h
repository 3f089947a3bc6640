//===- Paths.h - the one way distwar names a file ---------------*- C++ -*-===//
//
// Paths are compared as strings (is this the header the user named, is this
// copy where an #include will find it), so every path the tool keeps is
// normalised the same way.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_PATHS_H
#define DISTWAR_REWRITE_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace distwar {

/// \p Path made absolute (relative to \p Base, else to the current
/// directory), with `.` and `..` removed lexically.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base = "");

} // namespace distwar

#endif
