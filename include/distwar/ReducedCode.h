//===- ReducedCode.h - code that already reduces across the warp -*- C++
//-*-===//
//
// Some kernels already reduce by hand (KERNELS.md): shuffles feeding one
// atomic, cooperative-groups reduce with lane-0 atomics, match-any grouping
// with shared memory. Batching their atomics again gains nothing and may
// break the hand-written scheme, so such functions are left alone.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REDUCEDCODE_H
#define DISTWAR_REDUCEDCODE_H

#include "distwar/AtomicSites.h"

namespace distwar {

/// The warp collective (shuffle, match, warp reduce, cooperative-groups
/// reduce) that \p FD or a function it calls uses, or "" when none.
std::string findWarpCollective(const clang::FunctionDecl *FD);

/// Gives the reason AlreadyReduced to the sites of a function that uses a
/// warp collective: every batchable one, and those refused for their form
/// that follow the collective or run in one lane.
void markAlreadyReduced(std::vector<AtomicSite> &Sites);

} // namespace distwar

#endif
