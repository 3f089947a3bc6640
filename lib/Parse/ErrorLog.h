//===- ErrorLog.h - where Clang's errors point ------------------*- C++ -*-===//
//
// Keeps the place of every error Clang reports during a parse, and the
// places its "in instantiation of ... requested here" notes name, while
// passing every diagnostic on unchanged. The rewrite uses them to leave
// alone only the functions Clang could not read (Find/UnparsedFunctions.h):
// clangd keeps working on a file with a broken function, and so should a
// build step whose nvcc reads that function otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_ERRORLOG_H
#define DISTWAR_PARSE_ERRORLOG_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace distwar {

/// One error of a parse.
struct ClangError {
  unsigned ID = 0;           ///< Clang's diagnostic ID
  clang::SourceLocation Loc; ///< invalid when Clang named no place
  std::string Message;
  /// A fatal error (a missing #include, too many errors): the parse
  /// stopped, so what follows it is missing from the AST.
  bool Fatal = false;
  /// An error of the lexer or the parser (or of the driver, before them),
  /// not one of Clang's semantic checks: the parser's recovery may skip
  /// tokens past the function it lies in, so the AST of the rest of the
  /// file cannot be trusted either.
  bool Syntax = false;
  /// Where the notes that followed it say a template instantiation was
  /// requested, innermost first: the error belongs to those places too.
  std::vector<clang::SourceLocation> RequestedAt;
};

/// A diagnostic consumer that records errors and forwards everything to
/// \p Next.
class ErrorLog : public clang::DiagnosticConsumer {
public:
  explicit ErrorLog(clang::DiagnosticConsumer &Next) : Next(Next) {}

  void BeginSourceFile(const clang::LangOptions &LangOpts,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void finish() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  llvm::ArrayRef<ClangError> errors() const { return Errors; }

private:
  clang::DiagnosticConsumer &Next;
  std::vector<ClangError> Errors;
  /// The notes that follow an error belong to it.
  bool AfterError = false;
};

/// Whether \p DiagID is a note that names where a template instantiation
/// was requested.
bool isInstantiationNote(unsigned DiagID);

} // namespace distwar

#endif
