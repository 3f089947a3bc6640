//===- OptOut.h - Sites a NODISTWAR comment leaves alone --------*- C++ -*-===//
//
// As clang-tidy's NOLINT comments do for its checks: `// NODISTWAR` on a
// site's line, `// NODISTWARNEXTLINE` on the line before it, or the lines
// from `// NODISTWARBEGIN` to `// NODISTWAREND` (a function, a region) keep
// the site as written, whatever the tool could prove.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_OPTOUT_H
#define DISTWAR_FIND_OPTOUT_H

#include "Find/AtomicSites.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace distwar {

/// The lines (1-based) of \p Text that a NODISTWAR comment covers.
llvm::DenseSet<unsigned> optedOutLines(llvm::StringRef Text);

/// Gives every site on a covered line Reason::OptedOut.
void markOptedOut(clang::ASTContext &Ctx, std::vector<AtomicSite> &Sites);

} // namespace distwar

#endif
