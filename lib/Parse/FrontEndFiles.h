//===- FrontEndFiles.h - the files every parse reads first ------*- C++ -*-===//
//
// What the front end adds to the user's file: the declarations nvcc's
// headers make and Clang's do not, read before Clang's CUDA wrapper; the
// main files precompiled headers are built from. They live in memory and
// are part of the precompiled headers' cache key. Defined in CudaArgs.cpp,
// with the flags that name them.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_FRONTENDFILES_H
#define DISTWAR_PARSE_FRONTENDFILES_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm::vfs {
class InMemoryFileSystem;
}

namespace distwar {

/// The CCCL include directory of an SDK, or "" when it has none.
std::string cudaCcclIncludeDir(llvm::StringRef CudaPath);

/// The front end's own in-memory files (the nvcc declarations, the empty
/// main file of a precompiled header): added to every parse's file system,
/// never listed as files the parse read.
void addFrontEndFiles(llvm::vfs::InMemoryFileSystem &FS);
bool isFrontEndFile(llvm::StringRef Path);
/// The nvcc declarations read before Clang's CUDA wrapper.
std::string frontEndBeforeWrapper();
/// The empty main file a precompiled header is built from.
std::string frontEndPchMain();
/// The main file, of text \p Text, a precompiled header of hoisted headers
/// is built from (HoistedHeaders.h): one name per text, as a parse may try
/// more than one.
std::string frontEndHoistedMain(llvm::StringRef Text);
/// The contents of every front-end file (part of a cache key).
std::string frontEndFileText();

} // namespace distwar

#endif
