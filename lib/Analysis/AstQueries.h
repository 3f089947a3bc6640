//===- AstQueries.h - questions about expressions and loops -----*- C++ -*-===//
//
// Queries every stage asks of the AST: the name a call is written with, an
// expression's text, whether it is a constant for every instantiation, the
// counter of a counting loop.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_ASTQUERIES_H
#define DISTWAR_ANALYSIS_ASTQUERIES_H

#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CXXOperatorCallExpr;
} // namespace clang

namespace distwar {

/// Whether local \p V's storage is not the enclosing call's own (static,
/// `__shared__` or extern): code moved into a lambda, or instantiated
/// twice, would not mean the same by it.
bool hasStorageBeyondCall(const clang::VarDecl *V);

/// True when \p E is an integer constant for every instantiation: a literal,
/// enumerator, constexpr variable, non-type template parameter, sizeof, or
/// arithmetic of those.
bool isCompileTimeConstant(const clang::Expr *E, clang::ASTContext &Ctx);

/// The name of the function \p Call calls, resolved or not (template code),
/// or "".
llvm::StringRef calleeName(const clang::CallExpr *Call);

/// A loop `for (v = Start; ...; ++v)`: the counter is declared or assigned in
/// the init and stepped by `++v`, `v++` or `v += 1`.
struct CountingLoop {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Start = nullptr;
};
std::optional<CountingLoop> matchCountingLoop(const clang::ForStmt *F);

/// The variable a `for` loop's init declares or assigns, or null.
const clang::VarDecl *loopVariable(const clang::ForStmt *F);

/// The value a `for` loop's init gives loopVariable(F), which must not be
/// null; null for a declaration without an initialiser.
const clang::Expr *loopStart(const clang::ForStmt *F);

/// The body of a `for`, range `for`, `while` or `do` loop; null when \p S is
/// not a loop.
const clang::Stmt *loopBody(const clang::Stmt *S);

/// True when \p E names \p V (through parentheses and implicit casts).
bool refersTo(const clang::Expr *E, const clang::VarDecl *V);

/// True when \p A and \p B are the same expression, token for token (by
/// structure: names resolved, canonical types).
bool sameExpression(const clang::Expr *A, const clang::Expr *B,
                    const clang::ASTContext &Ctx);

/// For `acc[a][b]...` through overloaded `operator[]`s: the object
/// subscripted first (`acc`) and the calls, outermost first; null when \p E
/// is not such a chain.
const clang::Expr *
subscriptChain(const clang::Expr *E,
               llvm::SmallVectorImpl<const clang::CXXOperatorCallExpr *> &Ops);

/// \p Loc where the user wrote it (a macro argument's own text, else the
/// macro's invocation) as the report names places, saying \p Text; none
/// when \p Loc is not in a file.
std::optional<ReasonPlace> placeAt(const clang::SourceManager &SM,
                                   clang::SourceLocation Loc,
                                   llvm::StringRef Text);

/// \p Loc as placeAt names it, but at the line (and file) a #line directive
/// gives it: a place in a parse of rewritten text, whose directives keep
/// the user's line numbers (the --balance=tiles pass reads the batched
/// text).
std::optional<ReasonPlace> presumedPlaceAt(const clang::SourceManager &SM,
                                           clang::SourceLocation Loc,
                                           llvm::StringRef Text);

/// The source text of \p E, or "" when it does not lie in the main file
/// outside macro bodies.
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// How a function's name spells its template arguments.
struct WrittenTemplateArgs {
  /// Whether the name has `<...>` (possibly empty).
  bool Angles = false;
  /// The arguments written between them.
  unsigned Count = 0;
  /// The `<`, when written.
  clang::SourceLocation LAngle;
  /// The name's last token (before any `<`).
  clang::SourceLocation NameEnd;
};

/// The template arguments \p Name (a DeclRefExpr or an OverloadExpr)
/// writes; none for any other expression.
std::optional<WrittenTemplateArgs> writtenTemplateArgs(const clang::Expr *Name);

/// The text of \p F's parameters, first to last (without the parentheses);
/// invalid when it has none.
clang::SourceRange parameterListRange(const clang::FunctionDecl *F);

/// The returns of \p Body, outside the lambdas in it.
std::vector<const clang::ReturnStmt *> returnsOf(const clang::Stmt *Body);

} // namespace distwar

#endif
