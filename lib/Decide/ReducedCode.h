//===- ReducedCode.h - code that already reduces by hand --------*- C++ -*-===//
//
// Some kernels already reduce by hand (docs/KERNELS.md): shuffles feeding one
// atomic, cooperative-groups reduce with lane-0 atomics, match-any grouping
// with shared memory. Batching their atomics again gains nothing and may
// break the hand-written scheme, so such functions are left alone.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_REDUCEDCODE_H
#define DISTWAR_DECIDE_REDUCEDCODE_H

#include "Find/AtomicSites.h"

namespace distwar {

/// The first call in \p FD through which it reduces across the warp (a
/// shuffle feeding a sum, a match, a warp reduce, cooperative-groups reduce,
/// or a call of a function that does), or null when there is none.
const clang::CallExpr *findWarpReduction(const clang::FunctionDecl *FD);

/// Gives the reason AlreadyReduced to the sites of a function that uses a
/// warp collective: every batchable one, and those refused for their form
/// that follow the collective or run in one lane.
void markAlreadyReduced(std::vector<AtomicSite> &Sites);

} // namespace distwar

#endif
