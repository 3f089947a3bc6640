//===- RunTimeTrip.h - Loops of run-time trip count, versioned --*- C++ -*-===//
//
// `for (int ch = 0; ch < p.channels; ++ch)` adds one texel's channels: with
// the trip count a run-time value the channels cannot be a batch's fields.
// The rewriter versions such a loop instead: a copy for each small trip
// count, where the count is a constant, and the loop as written for the
// others (Emit/ChannelVersions.h). Versioned, the loop's adds are deferred
// past its own reads; the ranges those reads and adds cover are compared
// at run time, before the loop, so both must be computable there.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_RUNTIMETRIP_H
#define DISTWAR_ANALYSIS_RUNTIMETRIP_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace distwar {

/// Whether \p F, `for (int v = 0; v < n; ++v)` with n not a compile-time
/// constant, may be versioned: it is a statement of a block (\p Parent), n
/// is an integer that can be evaluated once before the loop (no load
/// through a pointer, no call, and the loop changes none of its variables;
/// or a load through a reference parameter, `r` or `r.m`, when the loop
/// stores only into local variables and adds only floating-point values),
/// and the body neither leaves the loop (break, return, goto) nor reaches a
/// barrier or warp collective (lanes whose reads and adds overlap run the
/// loop as written, the others a version).
bool isVersionableLoop(const clang::ForStmt *F, const clang::Stmt *Parent,
                       clang::ASTContext &Ctx);

/// Whether \p Addr, an address of the body of versionable loop \p F, is
/// `P + t1 + ... + v` or `&P[t1 + ... + v]` with v the loop variable once,
/// and the pointer P and every other term computable before the loop: no
/// load through a pointer, no call, no variable the loop changes. Its
/// address at v = 0 then starts the range of trip-count elements that the
/// loop touches through it.
bool isChannelAddress(const clang::Expr *Addr, const clang::ForStmt *F);

/// The same for a read, `P[t1 + ... + v]` or `*(P + t1 + ... + v)`.
bool isChannelRead(const clang::Expr *Read, const clang::ForStmt *F);

} // namespace distwar

#endif
