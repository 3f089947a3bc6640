//===- ChannelLoopMatch.h - Loops whose iterations fill fields --*- C++ -*-===//
//
// `for (ch = 0; ch < 3; ++ch) atomicAdd(&buf[key * 3 + ch], v[ch]);`: each
// iteration writes its own field of the key's element, so the loop is one
// site taking U - L slots.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_CHANNELLOOPMATCH_H
#define DISTWAR_FIND_CHANNELLOOPMATCH_H

#include "Find/AtomicSites.h"
#include <optional>

namespace distwar {

/// Matches `for (ch = L; ch < U; ++ch)` with compile-time L and U and a body
/// that neither leaves the loop nor writes ch; \p Parent is the loop's parent
/// (an attributed statement holds its unroll pragma). With
/// \p AllowRunTimeTrip, also a loop from 0 whose bound is a run-time value
/// that versioning can read once before it (isVersionableLoop).
std::optional<ChannelLoop> matchChannelLoop(const clang::ForStmt *F,
                                            const clang::Stmt *Parent,
                                            clang::ASTContext &Ctx,
                                            bool AllowRunTimeTrip = false);

} // namespace distwar

#endif
