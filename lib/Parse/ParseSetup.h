//===- ParseSetup.h - what every parse of a file starts from ----*- C++ -*-===//
//
// The parse (ParsedFile.h) and the preprocessor-only scan start alike: the
// file system they read, the device-only compiler invocation of the user's
// flags (CudaArgs.h), the diagnostics, the files read.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_PARSESETUP_H
#define DISTWAR_PARSE_PARSESETUP_H

#include "Parse/FrontEndFiles.h"
#include "Parse/NvccSpelling.h"
#include "Parse/ParseFailure.h"
#include "distwar-rewrite/FrontEnd.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/Utils.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <string>
#include <vector>

namespace distwar {

/// Every file entered, system headers included: a depfile must name the
/// CUDA headers too, or an SDK update would not re-run the rewrite. Files
/// of a precompiled header count as read.
class EveryFileCollector : public clang::DependencyCollector {
  bool needSystemDependencies() override { return true; }
  // The precompiled header itself is the tool's, not the user's.
  bool sawDependency(llvm::StringRef Filename, bool FromModule, bool IsSystem,
                     bool IsModuleFile, bool IsMissing) override {
    return !IsModuleFile &&
           clang::DependencyCollector::sawDependency(
               Filename, FromModule, IsSystem, IsModuleFile, IsMissing);
  }
};

/// The files \p Deps saw, as readFiles promises: the main file first, the
/// others sorted, the front end's own in-memory files left out. Sorted, so
/// that a parse through a precompiled header lists what a parse without
/// one lists.
std::vector<std::string> readFiles(const clang::DependencyCollector &Deps,
                                   llvm::StringRef MainFile);

/// The file system a parse reads: the disk, the code being parsed (it may
/// come from stdin or a check), the front end's own files, and
/// NvccSpelling.h's changes on top.
struct ParseFileSystem {
  ParseFileSystem(llvm::StringRef FilePath, llvm::StringRef Code) {
    // Not the real file system: `-working-directory` (from a compilation
    // database) would change the process's directory, and with it where
    // relative output paths go.
    auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
        llvm::vfs::createPhysicalFileSystem());
    Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    Overlay->pushOverlay(Memory);
    Memory->addFile(FilePath, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
    addFrontEndFiles(*Memory);
    Spelling = llvm::makeIntrusiveRefCnt<NvccSpellingFileSystem>(Overlay);
  }
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory;
  llvm::IntrusiveRefCntPtr<NvccSpellingFileSystem> Spelling;
};

/// What a parse and a token scan start from: the file system, the
/// diagnostics, the compiler invocation and its arguments.
struct ParseSetup {
  ParseSetup(llvm::StringRef FilePath, llvm::StringRef Code)
      : FS(FilePath, Code) {}
  ParseFileSystem FS;
  ParseFailure Failure;
  std::vector<std::string> CC1Args;
  std::shared_ptr<clang::CompilerInvocation> Inv;
};

/// Builds \p S's invocation for \p Options; an error when the driver
/// rejects the flags.
llvm::Error setUpParse(ParseSetup &S, llvm::StringRef FilePath,
                       const FrontEnd &Options);

/// Runs \p Action on \p Inv with diagnostics to \p Failure. The "N errors
/// generated" line is dropped: the tool says what failed, first.
bool runAction(std::shared_ptr<clang::CompilerInvocation> Inv,
               llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
               clang::FrontendAction &Action, clang::DiagnosticConsumer &Diags);

} // namespace distwar

#endif
