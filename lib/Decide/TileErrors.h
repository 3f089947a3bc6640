//===- TileErrors.h - kernels Clang's errors keep as written ----*- C++ -*-===//
//
// A file in which Clang reports errors is balanced where the errors cannot
// reach, as the batching rewrites around them (Find/UnparsedFunctions): a
// kernel stays as written (DW0068) when Clang could not parse
//   - the kernel, or a function it calls or instantiates (what it does is
//     not known; nvcc may read it otherwise);
//   - a function that holds an error itself and names the kernel, or whose
//     tokens spell its name: a launch there keeps the old parameters, and
//     Clang's recovery may have dropped the launch from the AST altogether,
//     so only the tokens show it (a function that only calls one Clang
//     could not parse has its whole AST: its launches are seen and
//     rewritten);
// and every kernel stays when an error lies outside every function (at file
// scope, fatal, a syntax error): nothing in the file is proven then.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_TILEERRORS_H
#define DISTWAR_DECIDE_TILEERRORS_H

#include "Find/UnparsedFunctions.h"
#include "Parse/ErrorLog.h"
#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Syntax/Tokens.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

namespace distwar {

class TileErrors {
public:
  /// The errors \p Errors (at least one) of the parse that built \p Ctx,
  /// whose tokens are \p Tokens. Places are at the lines #line directives
  /// give (the pass parses rewritten text).
  TileErrors(clang::ASTContext &Ctx, const clang::syntax::TokenBuffer &Tokens,
             llvm::ArrayRef<ClangError> Errors);

  /// Why the errors keep \p Kernel (a definition, a template's pattern) as
  /// written: Reason::TileParseError with the place that shows it, or
  /// None. \p Refs: the expressions that name the kernel.
  Verdict verdict(const clang::FunctionDecl *Kernel,
                  llvm::ArrayRef<const clang::Expr *> Refs) const;

  /// Whether the errors could be pinned to functions (else every kernel
  /// stays as written).
  bool attributed() const { return Unparsed.has_value(); }
  /// How many functions of the user's files Clang could not parse (or that
  /// reach one); 0 when the errors could not be pinned to functions.
  unsigned unparsedUserFunctions() const {
    return Unparsed ? Unparsed->userFunctions() : 0;
  }

private:
  /// The function holding an error that a reference lies in, or None.
  Verdict holderVerdict(const clang::Expr *Ref) const;

  clang::ASTContext &Ctx;
  std::optional<UnparsedFunctions> Unparsed;
  /// Where the first error is, when the errors cannot be pinned to
  /// functions.
  std::optional<ReasonPlace> FirstError;
  /// Every name the functions that hold an error spell: the first place,
  /// and the function that spells it.
  llvm::StringMap<std::pair<ReasonPlace, std::string>> SpelledInUnparsed;
};

} // namespace distwar

#endif
