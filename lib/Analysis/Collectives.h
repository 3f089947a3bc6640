//===- Collectives.h - Barriers and warp-collective calls -------*- C++ -*-===//
//
// A statement that synchronises lanes (a barrier, a shuffle, a vote, a
// cooperative-groups call) must be reached by the lanes that take part; the
// rewriter neither guards nor moves such a statement into code that only
// some lanes run.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_COLLECTIVES_H
#define DISTWAR_ANALYSIS_COLLECTIVES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"

namespace distwar {

/// True for a declaration inside namespace cooperative_groups.
bool inCooperativeGroups(const clang::Decl *D);

/// Cooperative-groups queries that read the launch configuration only.
bool isGroupAccessor(llvm::StringRef Name);

/// True for barriers and warp-collectives (__syncthreads, __syncwarp,
/// __shfl*, __ballot*, __any/__all, __match*, cooperative groups) and for
/// calls that may contain one (an unknown body).
bool mayBeCollective(const clang::Stmt *S, unsigned Depth = 0);

/// True for a block-wide barrier statement (__syncthreads(), block.sync()).
bool isBlockBarrier(const clang::Stmt *S);

/// True when \p S, or a function it calls, may wait at a barrier of the
/// block or the grid: __syncthreads and its kin, barrier intrinsics,
/// cooperative-groups calls other than accessors, inline asm, and calls
/// whose body is unknown. Warp collectives are not barriers of the block.
bool mayReachBlockBarrier(const clang::Stmt *S, unsigned Depth = 0);

} // namespace distwar

#endif
