//===- DepFile.h - make-style dependency files ------------------*- C++ -*-===//

#ifndef DISTWAR_TOOLS_DEPFILE_H
#define DISTWAR_TOOLS_DEPFILE_H

#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace distwar {

/// `targets: prerequisites` with one prerequisite per line, each name
/// escaped as make reads it.
std::string depFileText(llvm::ArrayRef<std::string> Targets,
                        llvm::ArrayRef<std::string> Prerequisites);

} // namespace distwar

#endif
