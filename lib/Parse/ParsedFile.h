//===- ParsedFile.h - one device-only parse of one file ---------*- C++ -*-===//
//
// Parses a file once with the front-end flags of CudaArgs.h and hands the
// AST, the expanded token stream (to spell macro invocations) and the list
// of files the parse read (for --depfile) to a callback while they are
// alive. Files are read as NvccSpelling.h makes them parse; the CUDA
// headers Clang includes first come from a precompiled header when a cache
// directory is given (PchCache.h).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_PARSEDFILE_H
#define DISTWAR_PARSE_PARSEDFILE_H

#include "Parse/ErrorLog.h"
#include "distwar-rewrite/FrontEnd.h"
#include "distwar-rewrite/Inclusion.h"
#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Syntax/Tokens.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <string>
#include <vector>

namespace distwar {

struct ParsedFile {
  clang::ASTContext &Ctx;
  const clang::syntax::TokenBuffer &Tokens;
  /// True when Clang reported an error; the AST may be incomplete.
  bool HasErrors = false;
  /// The tool's one-line summary of the first error (file:line:col: what
  /// Clang rejects, and what to do where nvcc accepts it), then Clang's
  /// diagnostics, trimmed.
  std::string DiagnosticText;
  /// Clang's errors, in the order it reported them, with their places.
  std::vector<ClangError> Errors;
  /// Every file the parse read (readFiles order).
  std::vector<std::string> FilesRead;
  /// Every resolved #include, in order, with the file it reached.
  struct ResolvedInclusion {
    Inclusion Spelling;
    const clang::FileEntry *File = nullptr;
    const clang::FileEntry *IncluderFile = nullptr;
  };
  std::vector<ResolvedInclusion> Inclusions;
  /// The user's bytes of \p File: the parse may read a file with
  /// NvccSpelling.h's changes; outputs are made from these.
  std::function<llvm::StringRef(clang::FileID)> OriginalText;
};

/// A file a parse reads from memory rather than the disk: a header as an
/// earlier pass rewrote it.
struct FileOverlay {
  std::string Path; ///< absolute, as the parse finds the file
  std::string Text;
};

/// Parses \p Code as \p FilePath and calls \p Body with the result, even
/// when Clang reported errors; the files of \p Overlays are read as they
/// say. Returns an error only when the compiler could not run at all (bad
/// flags).
llvm::Error parseFile(llvm::StringRef FilePath, llvm::StringRef Code,
                      const FrontEnd &Options,
                      llvm::function_ref<void(ParsedFile &)> Body,
                      llvm::ArrayRef<FileOverlay> Overlays = {});

/// What the preprocessor alone found in a file.
struct TokenScan {
  /// A name that may call an atomic add (isAtomicName in ParsedFile.cpp)
  /// reached code outside the system headers.
  bool MayHaveAtomics = false;
  std::vector<std::string> FilesRead;
};

/// True when \p Code holds a token that may name an atomic add (atomicAdd,
/// gpuAtomicAdd, atomic_add, ...): the cheap first test of whether a file
/// needs a full parse.
bool mentionsAtomics(llvm::StringRef Code);

/// Preprocesses \p Code as \p FilePath (no parse): the second, exact test,
/// which also sees the atomics that user headers and macros bring in.
llvm::Expected<TokenScan> scanTokens(llvm::StringRef FilePath,
                                     llvm::StringRef Code,
                                     const FrontEnd &Options);

} // namespace distwar

#endif
