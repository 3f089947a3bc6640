//===- GroupPlan.h - how each group is rewritten, decided -------*- C++ -*-===//
//
// What Decide hands Emit: for every group, whether it is batched and why
// not; for a batched one, everything Emit needs to write it without
// deciding anything: its name and table entry, its reduction (serial,
// butterfly, block), its slots, its active flag, its strip, the match it
// shares and the joint reduction it takes part in. Plans are made once and
// never changed after (docs/ARCHITECTURE.md).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PLAN_GROUPPLAN_H
#define DISTWAR_PLAN_GROUPPLAN_H

#include "Group/Grouping.h"
#include "Plan/FlagPlan.h"
#include "Plan/SlotLayout.h"
#include "clang/Basic/SourceLocation.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace distwar {

/// The included files whose device functions may be edited, each with its
/// path relative to the entry that allows it.
using EditableHeaders = std::map<clang::FileID, std::string>;

/// The loop whose laps a group reduces together (its step becomes a whole
/// strip's), its counter (declared in the loop's init, redeclared per lap)
/// and the condition's text, tested again before every lap after the first.
struct StripLoop {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Counter = nullptr;
  std::string CondText;
};

/// The reduction a batched group gets.
enum class Strategy {
  Serial,           ///< reduceSerial: lanes matched by key
  Butterfly,        ///< reduceButterfly: the key checked at run time
  ButterflyUniform, ///< reduceButterflyUniform: the key proved uniform
  Block,            ///< reduceBlock: a shared-memory table per thread block
};

/// "serial", "butterfly", "butterfly-uniform" or "block".
const char *strategyName(Strategy S);

/// A serial group's part in its versioned loop's joint reduction
/// (reduceSerialTogether, GENERATED_CODE.md, section 11).
enum class JointRole {
  Alone, ///< reduced by itself
  First, ///< opens the joint reduction
  Later, ///< a later part of it
};

struct GroupPlan {
  const SiteGroup *Group = nullptr;
  /// Why the group is left alone; Reason::None: batched, and the rest of
  /// the plan says how.
  Verdict Why;
  /// "<header>:<function>#<Number>", the name in the site table and report.
  std::string Name;
  /// The group's number in its function: the suffix of its variables.
  unsigned Number = 0;
  /// The file its function is in, and its index in that file's table.
  clang::FileID File;
  unsigned TableIndex = 0;
  Strategy Kind = Strategy::Serial;
  SlotLayout Slots;
  /// A butterfly's active flag.
  FlagPlan Flags;
  /// A butterfly reduced in strips (the laps of its loop together).
  std::optional<StripLoop> Strip;
  /// The address lambda: deferred addresses of a serial or butterfly batch
  /// (none: the batch keeps pointers), or a block group's (always).
  std::optional<std::string> AddrOf;
  /// The shared-match chain (SharedMatch.h) a serial group takes part in,
  /// 0 for none; the chain's first such group keeps the match, the others
  /// reuse it (SharesMatchWith names the first).
  unsigned Chain = 0;
  std::string SharesMatchWith;
  JointRole Joint = JointRole::Alone;
  std::string ReducedWith; ///< the joint reduction's first group (Later)
  /// The loop of run-time trip count the group's channel loop is versioned
  /// for (ChannelVersions), and what its versions read; null for none.
  const ChannelLoop *Versioned = nullptr;
  std::vector<const clang::Expr *> VersionedReads;
  /// The last group of a loop body written without braces: the braces go
  /// on with it.
  bool BracesBody = false;
  /// A butterfly that also has the serial form, which its site value picks
  /// at run time: its loop runs as the form's version (runForms), whose
  /// reduction is reduceButterflyOrSerial; the launch's tuner searches form
  /// and threshold together.
  bool SerialForm = false;
  /// The threshold the site table starts it at (0, or kNeverReduce).
  int InitialThreshold = 0;
  /// Why a faster reduction was not used, why not the block strategy, why
  /// it starts plain (Reason::None where none applies).
  Reason Note = Reason::None, BlockNote = Reason::None,
         StartNote = Reason::None;

  bool batched() const { return Why == Reason::None; }
  bool butterfly() const {
    return Kind == Strategy::Butterfly || Kind == Strategy::ButterflyUniform;
  }
};

/// The plan of a whole file.
struct RewritePlan {
  /// The floor variant: every site in FloorSites becomes floorAdd, and no
  /// group is batched.
  bool Floor = false;
  std::vector<size_t> FloorSites;
  /// One plan per group, in the groups' order.
  std::vector<GroupPlan> Groups;
  /// The batched groups' indices in Groups, in the order their texts are
  /// written (their regions' ends): their site names follow it.
  std::vector<size_t> Order;
  /// Functions to leave as written whatever else the plan says (Clang could
  /// not parse them): no launch in them is wrapped. Null when Clang parsed
  /// the whole file.
  const UnparsedFunctions *Unparsed = nullptr;
};

} // namespace distwar

#endif
