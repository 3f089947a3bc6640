//===- UnparsedFunctions.h - functions Clang could not parse ----*- C++ -*-===//
//
// A file in which Clang reports errors is still rewritten where it can be,
// as clangd keeps working on it: only the functions Clang could not read
// are left as written. Those are
//   - the functions whose body holds an error; an error while instantiating
//     a template belongs to the template and to each function whose text
//     asked for the instantiation (the "requested here" notes);
//   - the functions Clang itself marked: an invalid declaration, or an
//     expression it rebuilt around an error (RecoveryExpr, containsErrors);
//   - every function that calls, constructs, instantiates or names one of
//     them, directly, through a lambda or an instantiation, as
//     Analysis/Effects follows calls: the call may have resolved to another
//     function in nvcc, and what the callee does is not known.
// An error outside every function body (at file scope, in a declaration,
// whose calls may mean another function to nvcc), a fatal one (a missing
// #include)
// or a syntax error (the parser's recovery may have skipped past the
// function that holds it) cannot be attributed: the file is not rewritten
// at all.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_UNPARSEDFUNCTIONS_H
#define DISTWAR_FIND_UNPARSEDFUNCTIONS_H

#include "Parse/ErrorLog.h"
#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace distwar {

class UnparsedFunctions {
public:
  /// The functions of \p Ctx that \p Errors (those of the parse that built
  /// it) leave unparsed; nullopt when an error cannot be attributed to a
  /// function definition. \p PresumedLines: the verdicts' places are at the
  /// lines #line directives give (a parse of rewritten text).
  static std::optional<UnparsedFunctions>
  find(clang::ASTContext &Ctx, llvm::ArrayRef<ClangError> Errors,
       bool PresumedLines = false);

  /// Why \p FD (any declaration or instantiation of it) is left as written:
  /// ParseErrorInFunction at its first error, or at the reference that
  /// reaches an unparsed function; None when it was parsed.
  Verdict verdict(const clang::FunctionDecl *FD) const;

  /// Whether \p FD itself (its text, or an instantiation of it) holds an
  /// error or something Clang marked, rather than only reaching a function
  /// that does: its own AST may be missing what it says.
  bool holdsError(const clang::FunctionDecl *FD) const {
    return Holders.count(keyOf(FD));
  }

  /// The number of unparsed functions defined outside system headers.
  unsigned userFunctions() const { return UserFunctions; }

  /// The declaration that stands for \p FD and all its redeclarations and
  /// instantiations: the canonical declaration of its pattern.
  static const clang::FunctionDecl *keyOf(const clang::FunctionDecl *FD);

private:
  llvm::DenseMap<const clang::FunctionDecl *, ReasonPlace> Why;
  /// keyOf the functions that hold an error themselves.
  llvm::DenseSet<const clang::FunctionDecl *> Holders;
  unsigned UserFunctions = 0;
};

} // namespace distwar

#endif
