//===- CursorEdits.h - Shared-array cursors, written ------------*- C++ -*-===//

#ifndef DISTWAR_EMIT_CURSOREDITS_H
#define DISTWAR_EMIT_CURSOREDITS_H

#include "Emit/EditList.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace distwar {

/// The shared-array cursors of \p Loop (SharedCursors.h), planned after the
/// groups' edits: an access whose tokens another edit touches keeps its
/// subscript, and a cursor left with no access is not declared. \p Counts
/// numbers the cursors of each file: a header's names must not depend on
/// the file that includes it (its copy is shared by every input).
void planCursorEdits(clang::ASTContext &Ctx, const clang::FunctionDecl *Function,
                     const clang::ForStmt *Loop, EditList &Edits,
                     std::map<clang::FileID, unsigned> &Counts);

} // namespace distwar

#endif
