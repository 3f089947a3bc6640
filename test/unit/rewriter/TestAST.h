//===- TestAST.h - annotated code and parsed CUDA for the tests -*- C++ -*-===//
//
// The unit tests parse in-memory CUDA with the hermetic shim and compare
// what the library reports with positions marked in the code itself, as
// clang-tools-extra's include-cleaner tests do with llvm::Annotations (whose
// implementation this LLVM install does not ship).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TEST_UNIT_REWRITER_TESTAST_H
#define DISTWAR_TEST_UNIT_REWRITER_TESTAST_H

#include "Find/AtomicSites.h"
#include "Group/Grouping.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace distwar {
namespace test {

/// Code with marks: `^` is a point, `$name^` a named point, `[[...]]` a
/// range and `$name[[...]]` a named range (ranges nest). The marks are
/// removed from code() and every offset is one into code(). A `$` not
/// followed by a name and `^` or `[[` is code; `^` and `]]` never are, so
/// annotated code writes `a[b[i] ]` and no xor. Malformed marks are a test
/// failure.
class AnnotatedCode {
public:
  /// Offsets [Begin, End) into code().
  struct Range {
    size_t Begin = 0, End = 0;
    friend bool operator==(const Range &A, const Range &B) {
      return A.Begin == B.Begin && A.End == B.End;
    }
    friend std::ostream &operator<<(std::ostream &OS, const Range &R) {
      return OS << "[" << R.Begin << ", " << R.End << ")";
    }
  };

  explicit AnnotatedCode(llvm::StringRef Text);

  llvm::StringRef code() const { return Code; }
  /// The one point named \p Name (a failure when there is not exactly one).
  size_t point(llvm::StringRef Name = "") const;
  /// Every point named \p Name, in source order.
  std::vector<size_t> points(llvm::StringRef Name = "") const;
  /// The one range named \p Name (a failure when there is not exactly one).
  Range range(llvm::StringRef Name = "") const;

private:
  std::string Code;
  llvm::StringMap<llvm::SmallVector<size_t, 1>> Points;
  llvm::StringMap<llvm::SmallVector<Range, 1>> Ranges;
};

/// Front-end arguments that parse CUDA without an SDK: the shim in
/// test/Inputs declares what the tests call.
std::vector<std::string> hermeticArgs();

/// A parsed main file (/virtual/t.cu) and what the first stages make of it.
struct Parsed {
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<AtomicSite> Sites;
  std::vector<SiteGroup> Groups;

  clang::ASTContext &context() const { return AST->getASTContext(); }
};

/// Parses \p Code (a failure when it does not compile), finds its sites,
/// groups them and decides each group's safety.
Parsed parse(llvm::StringRef Code);

/// The for statements of \p Ctx's translation unit, in source order.
std::vector<const clang::ForStmt *> forLoops(clang::ASTContext &Ctx);

/// The function at translation-unit scope named \p Name (its pattern when
/// it is a template), or null with a failure.
const clang::FunctionDecl *function(clang::ASTContext &Ctx,
                                    llvm::StringRef Name);

/// The statements of \p Name's body.
std::vector<const clang::Stmt *> bodyOf(clang::ASTContext &Ctx,
                                        llvm::StringRef Name);

/// The first variable of the main file named \p Name in traversal order
/// (locals of function templates included), or null with a failure.
const clang::VarDecl *variable(clang::ASTContext &Ctx, llvm::StringRef Name);

/// The offset in the main file of \p Loc's expansion location; a failure
/// when it lies elsewhere.
unsigned offsetOf(const clang::ASTContext &Ctx, clang::SourceLocation Loc);

/// The location at \p Offset in the main file.
clang::SourceLocation locationAt(const clang::ASTContext &Ctx, unsigned Offset);

} // namespace test
} // namespace distwar

#endif
