//===- GroupEdits.h - the text of each planned group ------------*- C++ -*-===//
//
// Writes a file's plan (Plan/GroupPlan.h) as edits, following
// docs/GENERATED_CODE.md: each batched group's batch, slots and reduction,
// a butterfly's flag and guards, a strip's laps, a block group's table in
// its kernel's wrapper, and each file's prologue. Nothing here decides: a
// plan says what to write, and this class only remembers the names the
// texts of earlier groups declared (a shared live flag, a kept match).
// EditPlanner.cpp writes serial and block groups and the file's parts,
// ButterflyEdits.cpp the butterfly's.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_GROUPEDITS_H
#define DISTWAR_EMIT_GROUPEDITS_H

#include "Emit/EditList.h"
#include "Group/EditPoints.h"
#include "Plan/GroupPlan.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <string>

namespace distwar {

/// The names a butterfly group declares.
struct ButterflyNames {
  std::string Batch, Reached, Key, Live;
};

class GroupEdits {
public:
  GroupEdits(clang::ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
             llvm::StringRef FilePath, const EditableHeaders *Headers,
             const OutputLayout &Layout);

  EditList &edits() { return Edits; }

  /// The texts of batched group \p P.
  void write(const GroupPlan &P);
  /// The braces around a loop body written without them, which is the
  /// scope of groups written just before (their texts are inside).
  void braceBody(const clang::Stmt *Scope);
  /// The wrapper of every kernel that holds block groups (section 10).
  void writeBlockScopes();
  /// The versions of every loop of run-time trip count that holds one of
  /// the \p Order groups of \p Plans (ChannelVersions.h).
  void writeVersions(const std::vector<GroupPlan> &Plans,
                     llvm::ArrayRef<size_t> Order);
  /// Shared-array cursors in each loop that holds a batched group.
  void writeCursors(const clang::FunctionDecl *Function,
                    const clang::ForStmt *Loop);
  /// floorAdd in place of each of \p Floored's atomicAdds.
  void writeFloor(llvm::ArrayRef<size_t> Floored);
  /// The prologue of \p File: the runtime's include and, where it has
  /// batched groups, its site table (\p SiteNames, starting at \p Initial).
  void prologue(clang::FileID File, llvm::ArrayRef<std::string> SiteNames,
                llvm::ArrayRef<int> Initial);

private:
  void writeSlots(const GroupPlan &P, const std::string &Batch);
  void writeSerial(const GroupPlan &P, const std::string &Batch);
  void writeBlock(const GroupPlan &P, const std::string &Batch);
  /// ButterflyEdits.cpp.
  void writeButterfly(const GroupPlan &P);
  std::string writeStrip(const GroupPlan &P, const std::string &BatchType);
  std::string writeFormVersions(const GroupPlan &P);
  void writeBodyHead(const FlagPlan &F, const std::string &Live,
                     const std::string &Decls);
  std::string hoistedDeclarations(const FlagPlan &F);
  void writeKeyCapture(const GroupPlan &P, const ButterflyNames &N);
  std::string keyCapture(const GroupPlan &P, const ButterflyNames &N) const;
  void writeReduction(const GroupPlan &P, const ButterflyNames &N,
                      bool UsesReached, const std::string &Call);

  std::string unrollPragma(const ChannelLoop &CL, const std::string &Trip);
  std::string tableOf(clang::FileID File) const;
  std::string threshold(unsigned TableIndex) const;
  std::string batchTypeOf(const GroupPlan &P, bool Deferred) const;
  /// The rank of the text that ends \p G's region: in a loop body without
  /// braces, before what statements around it add where they end too (the
  /// body's closing brace follows it).
  static Rank endRank(const SiteGroup &G) {
    return llvm::isa<clang::CompoundStmt>(G.Scope) ? RankReduce : RankBodyEnd;
  }

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const std::vector<AtomicSite> &Sites;
  std::string FilePath;
  const EditableHeaders *Headers;
  std::string Table; ///< the current group's
  EditList Edits;
  EditPoints Where;
  llvm::DenseSet<const clang::ForStmt *> Pragmas;
  /// Cursors declared so far in each file (CursorEdits.h).
  std::map<clang::FileID, unsigned> Cursors;
  /// The live flag of each loop body whose groups share one.
  std::map<const clang::Stmt *, std::string> LiveNames;
  /// The form parameter of each loop written as runForms' versions.
  std::map<const clang::Stmt *, std::string> FormNames;
  /// The KeptPeers variable of each shared-match chain.
  std::map<unsigned, std::string> ChainPeers;
  /// What the wrapper of one kernel declares before its body and runs
  /// after it.
  struct BlockScope {
    std::string Head, Tail;
  };
  std::map<const clang::FunctionDecl *, BlockScope> BlockScopes;
};

} // namespace distwar

#endif
