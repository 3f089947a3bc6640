//===- BlockScope.h - may a group accumulate per thread block? --*- C++ -*-===//
//
// The block strategy (GENERATED_CODE.md, section 10) sums a group's fields
// in a shared-memory table for the whole thread block and issues the sums
// when every thread of the block is done. The kernel's body then runs inside
// a lambda, `[&] { body }();`, so that a thread leaving early (a `return`,
// also one written in a macro) still reaches the table's flush, a barrier.
// This is where the rewriter decides whether that is safe.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_BLOCKSCOPE_H
#define DISTWAR_DECIDE_BLOCKSCOPE_H

#include "Group/Grouping.h"

namespace distwar {

/// Reason::None when \p Kernel's body may run inside a lambda followed by a
/// block-wide barrier: it is a __global__ function whose body, and every
/// function it calls, never waits at a barrier (a thread that returned
/// early would now wait at the flush while others wait at the user's
/// barrier), and whose body declares only non-static, non-shared variables
/// (no types or using-declarations, which would change what a name means
/// at the kernel's start).
Verdict blockScopeReason(const clang::FunctionDecl *Kernel);

/// Reason::None when \p G's atomics may be deferred past every statement of
/// \p Region: none reads or stores what they add to, or calls what could
/// (RegionChecker's rules for the statements between a group's atomics).
Verdict deferralReason(const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                       llvm::ArrayRef<const clang::Stmt *> Region);

/// Reason::None when \p G's atomics may be deferred to the kernel's end: no
/// statement of the kernel (any may run after the group, in a later
/// iteration) reads or stores what they add to, or calls what could, as
/// for the statements between a group's atomics (RegionChecker); a thread
/// that reads its own add back (`atomicAdd(&g[i], v); r = g[i];`) would
/// miss it. Else the reason and its statement.
Verdict blockDeferralReason(const std::vector<AtomicSite> &Sites,
                            const SiteGroup &G);

/// Reason::None when serial group \p G may use the block strategy as far as
/// the group itself goes: it is in the kernel's own body, its key is a
/// non-dependent integer (a primitive's index, not a pointer or an
/// address), its element type has a shared-memory atomicAdd and its size
/// is a constant (\p SizeText, the batch's size expression). Whether its
/// addresses can be rebuilt at the kernel's end is decided where they are
/// written (DeferredAddress.h).
Reason blockGroupReason(const std::vector<AtomicSite> &Sites,
                        const SiteGroup &G, llvm::StringRef SizeText);

} // namespace distwar

#endif
