//===- EarlyReturn.h - a return before the loop in the flag -----*- C++ -*-===//

#ifndef DISTWAR_DECIDE_EARLYRETURN_H
#define DISTWAR_DECIDE_EARLYRETURN_H

#include "Decide/Divergence.h"

namespace distwar {

/// `if (c) return;` at the top of the function before \p Loop (a pixel
/// outside the image): lanes that returned now run the loop with the flag
/// down (Plan.EarlyReturn). Provable only when what they now run in
/// addition neither writes nor reads memory (statements between the return
/// and the loop, the loop's init, condition and increment), no barrier lies
/// in the loop (they never executed one), nothing follows the loop, and
/// every lane runs the same iterations. Else the reason, reported as a
/// note: lanes that returned are then absent at the reduction.
Reason planEarlyReturn(clang::ASTContext &Ctx, const SiteGroup &G,
                       UniformityAnalysis &U, const clang::Stmt *Loop,
                       FlagPlan &Plan);

} // namespace distwar

#endif
