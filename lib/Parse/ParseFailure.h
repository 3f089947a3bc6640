//===- ParseFailure.h - what to tell the user when Clang fails --*- C++ -*-===//
//
// Collects Clang's diagnostics for a file the front end could not parse:
// the first error becomes the tool's one line (where, what Clang rejects,
// and for the constructs nvcc accepts and Clang does not, what to do);
// Clang's own diagnostics follow it, trimmed to the first few errors.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_PARSEFAILURE_H
#define DISTWAR_PARSE_PARSEFAILURE_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace clang {
class TextDiagnosticPrinter;
}

namespace distwar {

class ParseFailure : public clang::DiagnosticConsumer {
public:
  ParseFailure();
  ~ParseFailure() override;

  void BeginSourceFile(const clang::LangOptions &LangOpts,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  bool hasError() const { return !First.empty(); }
  /// `file:line:col: <what Clang rejects>[; <what to do>]`.
  std::string summary() const { return First; }
  /// summary(), then Clang's diagnostics, trimmed.
  std::string text() const;
  /// An error came from reading a precompiled header (stale or broken).
  bool fromPrecompiledHeader() const { return PchError; }
  /// The first error is a constant expression Clang could not evaluate.
  bool fromConstantEvaluation() const;

  /// The options the diagnostics engines that feed this consumer use.
  clang::DiagnosticOptions Options;

private:
  std::string First, Printed;
  std::unique_ptr<llvm::raw_string_ostream> OS;
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
  unsigned Errors = 0, FirstID = 0;
  bool PrintingNotes = false, PchError = false;
};

/// What to do about the construct behind Clang error \p DiagID at a place
/// nvcc accepts, or "" when the error is a plain one.
llvm::StringRef nvccDifferenceHint(unsigned DiagID);

/// The tool's line for Clang error \p DiagID saying \p Message at \p Loc
/// (of \p SM; no place without one): `file:line:col: Clang cannot parse
/// this: <message>[; <what to do>]`.
std::string errorLine(const clang::SourceManager *SM, clang::SourceLocation Loc,
                      llvm::StringRef Message, unsigned DiagID);

} // namespace distwar

#endif
