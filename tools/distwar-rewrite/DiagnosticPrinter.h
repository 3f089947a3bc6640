//===- DiagnosticPrinter.h - the report as clang diagnostics ----*- C++ -*-===//
//
// --report=diagnostics: what the tool decided, in the form clang's own
// messages take. Each site left as written is a remark at its line (the
// source line and a caret under it), with the reason's code and name where
// clang puts a warning's flag; where one statement caused the reason (the
// call between a group's atomics, the store, the `break`), a note points at
// it with its own snippet. A batched group is one remark at its first site.
// A file that is already the tool's output, or holds no atomic add, is one
// remark without a location.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TOOLS_DIAGNOSTICPRINTER_H
#define DISTWAR_TOOLS_DIAGNOSTICPRINTER_H

#include "distwar-rewrite/Report.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace distwar {

/// \p Files as clang diagnostics, with ANSI colours when \p Colors. The
/// snippets are read from the reported files as they are on disk: render
/// before any output replaces its input (-i). A file that cannot be read
/// gets its remarks without snippets.
std::string renderDiagnosticsReport(llvm::ArrayRef<FileReport> Files,
                                    bool Colors);

} // namespace distwar

#endif
