//===- ParsedFile.h - one device-only parse of one file ---------*- C++ -*-===//
//
// Parses a file once with the front-end flags of CudaArgs.h and hands the
// AST, the expanded token stream (to spell macro invocations) and the list
// of files the parse read (for --depfile) to a callback while they are
// alive.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSEDFILE_H
#define DISTWAR_PARSEDFILE_H

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Syntax/Tokens.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace distwar {

/// One `#include` the preprocessor resolved: its spelling and the file.
struct Inclusion {
  std::string Spelled;
  const clang::FileEntry *File = nullptr;
};

struct ParsedFile {
  clang::ASTContext &Ctx;
  const clang::syntax::TokenBuffer &Tokens;
  /// True when Clang reported an error; the AST may be incomplete.
  bool HasErrors = false;
  /// Clang's diagnostics, as text.
  std::string DiagnosticText;
  /// Every file the parse read: the main file first, then each included
  /// file once, in the order they were entered.
  std::vector<std::string> FilesRead;
  /// Every resolved #include, in order.
  std::vector<Inclusion> Inclusions;
};

/// Parses \p Code as \p FilePath with \p FrontEndArgs and calls \p Body with
/// the result, even when Clang reported errors. Returns an error only when
/// the compiler could not run at all (bad flags).
llvm::Error parseFile(llvm::StringRef FilePath, llvm::StringRef Code,
                      const std::vector<std::string> &FrontEndArgs,
                      llvm::function_ref<void(ParsedFile &)> Body);

} // namespace distwar

#endif
