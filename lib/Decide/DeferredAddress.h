//===- DeferredAddress.h - addrOf lambdas for Fields batches ----*- C++ -*-===//
//
// The rewriter's deferred-address output (GENERATED_CODE.md, sections 2 and
// 6): a group's batch keeps only values, and the batched call gets a device
// lambda that rebuilds each field's address from the key.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_DEFERREDADDRESS_H
#define DISTWAR_DECIDE_DEFERREDADDRESS_H

#include "Find/AtomicSites.h"
#include "Plan/SlotLayout.h"
#include "Group/Grouping.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace distwar {

/// `[&](int distwar_slot) -> T * { ... }` for group \p G, with each site's key
/// replaced by \p KeyVar (kept as written when empty), or nullopt when an
/// address cannot be rebuilt safely at the call (a variable other than the
/// key's, the channel variable, unchanged parameters and globals; a macro
/// site; a condition that is not a plain `if`).
std::optional<std::string>
deferredAddressLambda(clang::ASTContext &Ctx,
                      const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                      llvm::ArrayRef<DeferredSlot> Slots,
                      llvm::StringRef KeyVar);

/// `[&](K distwar_key, int distwar_slot) -> T * { ... }` for group \p G: its
/// addresses rebuilt from a key given as a parameter, where the kernel's
/// body begins (the block strategy's flush runs after the body). Stricter
/// than deferredAddressLambda: no local of the body (a constexpr one
/// neither) may appear; a site written through a macro may, when its key is
/// a variable (its expanded tokens are spelled, the key's replaced).
/// nullopt when an address cannot be rebuilt there.
std::optional<std::string>
blockAddressLambda(clang::ASTContext &Ctx,
                   const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                   llvm::ArrayRef<DeferredSlot> Slots);

/// The conjunction of the `if` conditions between site \p S and \p G's scope
/// as source text: "" when the site runs whenever the statement of the scope
/// that holds it does (only blocks, expressions and the site's channel loop,
/// whose body never leaves it, in between); nullopt when the path holds
/// anything else (another loop, `?:`, `&&`, `||`, `switch`) or a condition
/// that cannot be repeated at the call. The group's LaneIfs are left out:
/// their conditions differ across lanes and are never repeated (the
/// reductions share the presence of LaneSet slots instead).
std::optional<std::string> siteCondition(clang::ASTContext &Ctx,
                                         const AtomicSite &S,
                                         const SiteGroup &G);

} // namespace distwar

#endif
