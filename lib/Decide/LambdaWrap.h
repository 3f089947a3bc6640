//===- LambdaWrap.h - may a loop run inside a generic lambda? ---*- C++ -*-===//
//
// Strips (StripMining.h) and the two forms of a butterfly (GroupPlans.cpp)
// both move a whole loop into a generic lambda that the runtime calls once
// per version (runStrips, runForms), so that each version's code is
// compiled on its own. This is where the rewriter decides that the loop
// means the same there.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_LAMBDAWRAP_H
#define DISTWAR_DECIDE_LAMBDAWRAP_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace distwar {

/// Whether \p Loop may run inside a generic lambda instantiated twice: a
/// statement of its own, with no label or attribute (an unroll pragma would
/// precede the lambda's call), no label inside (a goto from outside could
/// not reach it), no variable whose storage is not the call's (each
/// instantiation would have its own), and no use of a structured binding
/// declared outside it, which a C++17 lambda cannot capture.
bool runsInGenericLambda(clang::ASTContext &Ctx, const clang::Stmt *Loop);

/// Whether \p Loop's first token and the end of its body are spelled in
/// one file (no macro writes either), where a wrapper's texts can go.
bool wrappableInFile(const clang::Stmt *Loop, const clang::SourceManager &SM);

} // namespace distwar

#endif
