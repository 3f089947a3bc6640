//===- FlagPlan.h - the active flag of a butterfly group --------*- C++ -*-===//
//
// How lanes that skip a butterfly group's statements are kept at its
// reduction: a live flag, guards around what they skipped, hoisted
// declarations (GENERATED_CODE.md, section 6). Decide/Divergence.h plans
// it; Emit writes it as it stands.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PLAN_FLAGPLAN_H
#define DISTWAR_PLAN_FLAGPLAN_H

#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/Stmt.h"
#include <string>
#include <vector>

namespace distwar {

struct FlagPlan {
  const clang::Stmt *Loop = nullptr;
  /// The loop body, as a scope (SiteGroup::Scope: its block, or the loop
  /// where the body has no braces): flags, batch and key are declared at its
  /// start and the reduction is called at its top level, outside every guard.
  const clang::Stmt *Body = nullptr;
  /// The body statement holding the group: the group's last statement, or
  /// the outermost `if` (or block) whose branches hold the group's block,
  /// through nested ifs, else branches and else-if chains (then Reached is
  /// used: set where the group completes, the reduction after the holder).
  const clang::Stmt *Holder = nullptr;
  bool GroupUnderIf = false;
  /// Initial value of the live flag (lanes that have not skipped the rest of
  /// the iteration); empty when no lane can skip (no flag needed).
  std::string LiveInit;
  /// Loop-condition conjuncts moved into LiveInit, and the conjuncts kept.
  const clang::Expr *Cond = nullptr;
  std::vector<const clang::Expr *> RemovedTerms, KeptTerms;
  /// Continues that become `live = false`.
  std::vector<const clang::ContinueStmt *> Continues;
  /// Guards open at the body's start (loop-condition term) and after each of
  /// these body statements (those holding a converted continue).
  bool GuardFromStart = false;
  std::vector<const clang::Stmt *> GuardAfter;
  /// Speculation (Speculation.h): statements after some guard points run in
  /// every lane, unguarded, inside one warp-uniform branch
  /// `if (::distwar::anyActive(live)) {` so that warps with no active lane
  /// still skip them. The branch opens at the body's start (AnyFromStart,
  /// instead of the per-lane guard) or after AnyAfter (a GuardAfter
  /// statement), once the CloseBeforeAny per-lane guards open there are
  /// closed. After the GuardAfter statements in Unguarded no guard opens.
  bool AnyFromStart = false;
  const clang::Stmt *AnyAfter = nullptr;
  unsigned CloseBeforeAny = 0;
  std::vector<const clang::Stmt *> Unguarded;
  /// Statements after the holder run under `if (live) { ... }` again.
  bool GuardTrailing = false;
  /// Declarations split into a declaration at the body's start and an
  /// assignment in place, because statements after the reduction use them.
  std::vector<const clang::DeclStmt *> Hoisted;
  /// Constants (const or constexpr, of a constant value) that statements
  /// after the reduction use: moved whole to the body's start, where they
  /// stay constants (an array bound, a template argument).
  std::vector<const clang::DeclStmt *> HoistedWhole;
  /// How the captured key is declared, and its initialiser (` = 0`, or `{}`
  /// for an enumeration).
  std::string KeyType;
  std::string KeyInit = " = 0";
  /// Every lane of a warp runs the same iterations (so a uniform key may skip
  /// the run-time key check).
  bool UniformTrips = false;
  /// Why an early return before the loop could not join the flag (lanes
  /// that took it are absent at the call; their warps use plain atomics).
  Reason EarlyReturnNote = Reason::None;
  /// Why UniformTrips is false.
  Reason TripReason = Reason::None;
  /// Groups of one iteration share the live flag, each with its own batch
  /// and reduction: this group's position among them (source order). The
  /// first writes the flag, the guards and the hoisted declarations; a later
  /// one declares its batch just after the previous group's reduction.
  unsigned Segment = 0, Segments = 1;
  const clang::Stmt *PrevHolder = nullptr;
  /// Guards still open at this group's holder (closed before its reduction).
  unsigned GuardsOpen = 0;
  /// A group joined across converted continues keeps the guards of its
  /// parts: at the holder of each part but the last, the key is captured,
  /// Reached set and the part's guards closed and reopened as one
  /// `if (live) {`; the one reduction after the last holder takes Reached
  /// as its activity (the lanes that continued later still add the fields
  /// they set before).
  struct PartEnd {
    const clang::Stmt *Holder;
    unsigned GuardsOpen;
  };
  std::vector<PartEnd> PartEnds;
  /// `if (c) return;` before the loop, rewritten as
  /// `bool distwar_returned = (c);` (its lanes run the loop with the flag
  /// down).
  const clang::IfStmt *EarlyReturn = nullptr;

  /// Whether a Reached flag marks the lanes that completed the group (or
  /// its first part): they reduce, whether or not they are still live at
  /// the reduction.
  bool usesReached() const { return GroupUnderIf || !PartEnds.empty(); }

  /// Whether the reduction's active argument is `true`: no lane can skip
  /// the group (no live flag), and no Reached flag marks who completed it.
  bool alwaysActive() const { return LiveInit.empty() && !usesReached(); }

  /// Whether every lane runs every statement of the body at every iteration,
  /// the same iterations in every lane: no flag, guard, hoisted declaration
  /// or early return was planned, and the group is its iteration's only one.
  /// Keep in step with the fields above.
  bool everyLaneRunsAll() const {
    return LiveInit.empty() && !GroupUnderIf && PartEnds.empty() &&
           Continues.empty() && !GuardFromStart && GuardAfter.empty() &&
           !AnyFromStart && !AnyAfter && !GuardTrailing && Hoisted.empty() &&
           !EarlyReturn && GuardsOpen == 0 && Segments == 1 && UniformTrips;
  }
};

} // namespace distwar

#endif
