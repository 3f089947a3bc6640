//===- TilePlan.h - what --balance=tiles does to each kernel ----*- C++ -*-===//
//
// The boundary between the decision (Decide/TileKernels) and the text
// (Emit/TileEdits) of --balance=tiles: a kernel whose blocks are
// independent tiles becomes a persistent loop over tiles drawn from a pool
// (distwar::forEachTile, runtime/include/distwar/tiles.cuh), and each of its
// launches in the file is sized for it. Everything Emit needs is here.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PLAN_TILEPLAN_H
#define DISTWAR_PLAN_TILEPLAN_H

#include "Analysis/BlockIndexUses.h"
#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include <optional>
#include <vector>

namespace distwar {

/// One launch statement of a balanced kernel.
struct TileLaunchPlan {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  /// The kernel as the launch names it: a DeclRefExpr or an OverloadExpr,
  /// under parentheses at most.
  const clang::Expr *Callee = nullptr;
  /// Whether the launch takes the kernel's instance for the mode its
  /// launch chose (`k<true>` or `k<false>`, through a pointer); otherwise it
  /// launches `k<true>` (its template arguments deduced, its defaults
  /// taken, its overloads resolved as written), whose loop runs one tile
  /// per block when it is given no pool.
  bool ChoosesInstance = false;
  /// Whether it draws its tiles heaviest first when dynamic: it computes
  /// their costs first (the kernel's TileCost, in a kernel of its own, on
  /// its arguments evaluated once for both launches).
  bool Ordered = false;
};

/// What a balanced kernel's tile costs (Decide/TileCosts.h): the trip count
/// of a loop of its body, `for (v = Start; v < Bound; ...)`, and the body's
/// declarations that Start and Bound read, which a kernel of their own runs
/// for every tile before the launch.
struct TileCost {
  /// The loop.
  const clang::ForStmt *Loop = nullptr;
  const clang::Expr *Start = nullptr;
  const clang::Expr *Bound = nullptr;
  /// Statements of the body's top level, in order.
  std::vector<const clang::DeclStmt *> Decls;
};

/// One __global__ function of the main file and what becomes of it.
struct TileKernelPlan {
  /// The definition as written (a template's pattern).
  const clang::FunctionDecl *Kernel = nullptr;
  /// Why it stays as written; None: it is balanced.
  Verdict Why;
  /// The reads of its block index and grid size in its body, each replaced
  /// by the tile's.
  std::vector<BlockIndexUse> Uses;
  /// The launch statements of the file that launch it, each wrapped.
  std::vector<TileLaunchPlan> Launches;
  /// Whether its mode becomes its first template parameter (`template
  /// <bool distwar_dynamic_tiles>`), so that the original schedule runs
  /// the original code: not for a kernel of C linkage, which cannot be a
  /// template.
  bool ModeParameter = false;
  /// The returns of its body (not of lambdas in it): each ends the lane's
  /// tile instead (TileReturns proved it safe).
  std::vector<const clang::ReturnStmt *> Returns;
  /// What its tiles cost; none: they are drawn in launch order.
  std::optional<TileCost> Cost;

  bool balanced() const { return Why.Code == Reason::None; }
};

/// The plan of a file: one entry per kernel defined in it.
struct TilePlan {
  std::vector<TileKernelPlan> Kernels;
};

} // namespace distwar

#endif
