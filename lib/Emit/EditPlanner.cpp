//===- EditPlanner.cpp - text edits for planned groups --------------------===//

#include "Emit/EditPlanner.h"
#include "Analysis/AstQueries.h"
#include "Emit/BatchType.h"
#include "Emit/ChannelVersions.h"
#include "Emit/CursorEdits.h"
#include "Emit/GroupEdits.h"
#include "Emit/SiteTableNames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include <cassert>
#include <map>

using namespace clang;

namespace distwar {

GroupEdits::GroupEdits(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                       llvm::StringRef FilePath, const EditableHeaders *Headers,
                       const OutputLayout &Layout)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites), FilePath(FilePath),
      Headers(Headers), Table(siteTableName(FilePath)),
      Edits(Ctx, FilePath, Headers, Layout), Where(Ctx, Sites) {}

/// The table that \p File's batched calls read (GENERATED_CODE.md, 1, 2b).
std::string GroupEdits::tableOf(FileID File) const {
  if (File == SM.getMainFileID())
    return siteTableName(FilePath);
  return siteTableIdentifier(Headers->at(File));
}

std::string GroupEdits::threshold(unsigned TableIndex) const {
  return "DISTWAR_SITE_THRESHOLD(" + Table + ", " + std::to_string(TableIndex) +
         ")";
}

std::string GroupEdits::batchTypeOf(const GroupPlan &P, bool Deferred) const {
  return batchType(Ctx, Sites, *P.Group, P.Slots, Deferred,
                   P.Versioned != nullptr);
}

void GroupEdits::write(const GroupPlan &P) {
  assert(P.batched() && "only batched groups have texts");
  Table = tableOf(P.File);
  std::string Batch = "distwar_batch" + std::to_string(P.Number);
  writeSlots(P, Batch);
  if (P.butterfly())
    writeButterfly(P);
  else if (P.Kind == Strategy::Block)
    writeBlock(P, Batch);
  else
    writeSerial(P, Batch);
}

/// Each site's call turned into the batch's set at its slot; a channel
/// loop gets an unroll pragma if it has none.
void GroupEdits::writeSlots(const GroupPlan &P, const std::string &Batch) {
  const SiteGroup &G = *P.Group;
  for (size_t K = 0; K < G.Sites.size(); ++K) {
    const AtomicSite &S = Sites[G.Sites[K]];
    if (S.Channel && !S.Channel->HasUnrollPragma &&
        Pragmas.insert(S.Channel->Loop).second)
      Edits.add(S.Channel->Loop->getBeginLoc(), 0,
                unrollPragma(*S.Channel, P.Slots.Slots[K].Extent), RankPragma);
    if (S.Invocation)
      continue;
    const Expr *Callee = S.Call->getCallee();
    Edits.replaceTokens(Callee->getBeginLoc(), Callee->getEndLoc(),
                        Batch + ".set");
    Edits.add(Where.firstArgBegin(S.Call), 0, P.Slots.SlotTexts[K] + ", ",
              RankSlot);
  }
  auto SlotOf = [&](size_t I) {
    auto It = llvm::find(G.Sites, I);
    assert(It != G.Sites.end() && "a site of the group");
    return P.Slots.SlotTexts[It - G.Sites.begin()];
  };
  Edits.replaceInvocations(
      Sites, G.Sites, [&](size_t) { return Batch + ".set"; },
      [&](size_t I) { return SlotOf(I) + ", "; });
}

/// The serial reduction after the region: alone, as a part of its
/// versioned loop's joint reduction, or keeping or reusing its chain's
/// match.
void GroupEdits::writeSerial(const GroupPlan &P, const std::string &Batch) {
  const SiteGroup &G = *P.Group;
  Edits.add(Where.statementBegin(G.First), 0,
            batchTypeOf(P, P.AddrOf.has_value()) + " " + Batch + "; ",
            RankBatch);
  std::string Arguments =
      Batch + ", " + versionedKeyText(Sites[G.Sites.front()], Ctx) + ", " +
      threshold(P.TableIndex) + (P.AddrOf ? ", " + *P.AddrOf : "");
  SourceLocation End = Where.afterStatement(G.Last);
  if (P.Joint != JointRole::Alone) {
    std::string Part = "::distwar::serialPart(" + Arguments + ")";
    if (P.Joint == JointRole::First) {
      Edits.add(End, 0, " ::distwar::reduceSerialTogether(" + Part, endRank(G));
      Edits.add(End, 0, ");", RankJointClose);
    } else {
      Edits.add(End, 0, ", " + Part, endRank(G));
    }
    return;
  }
  std::string Peers;
  if (P.Chain && P.SharesMatchWith.empty()) {
    std::string Var = "distwar_peers" + std::to_string(P.Number);
    ChainPeers[P.Chain] = Var;
    Edits.add(Where.statementBegin(G.First), 0,
              "::distwar::KeptPeers " + Var + "; ", RankBatch);
    Peers = ", ::distwar::keepPeers(" + Var + ")";
  } else if (P.Chain) {
    Peers = ", ::distwar::reusePeers(" + ChainPeers.at(P.Chain) + ")";
  }
  Edits.add(End, 0, " ::distwar::reduceSerial(" + Arguments + Peers + ");",
            endRank(G));
}

/// A block group: values-only batch, reduceBlock with the kernel's table
/// and address lambda, declared in the kernel's wrapper.
void GroupEdits::writeBlock(const GroupPlan &P, const std::string &Batch) {
  const SiteGroup &G = *P.Group;
  assert(P.AddrOf && "a block group rebuilds its addresses");
  const AtomicSite &First = Sites[G.Sites.front()];
  BlockScope &Scope = BlockScopes[G.Function];
  std::string Suffix = std::to_string(P.Number);
  std::string SlotsName = "distwar_slots" + Suffix;
  std::string ModeName = "distwar_mode" + Suffix;
  std::string AddrName = "distwar_addr" + Suffix;
  // The site's value is read once: the table's clearing, every reduction
  // and the flush must agree on whether the table is used.
  Scope.Head += " __shared__ ::distwar::BlockSlots<" + First.TypeText + ", " +
                P.Slots.Size + "> " + SlotsName +
                "; const ::distwar::UniformThreshold " + ModeName + " = " +
                threshold(P.TableIndex) + "; ::distwar::blockBegin(" +
                SlotsName + ", " + ModeName + "); auto " + AddrName + " = " +
                *P.AddrOf + ";";
  Scope.Tail += " ::distwar::blockEnd(" + SlotsName + ", " + ModeName + ", " +
                AddrName + ");";
  Edits.add(Where.statementBegin(G.First), 0,
            batchTypeOf(P, /*Deferred=*/true) + " " + Batch + "; ", RankBatch);
  Edits.add(Where.afterStatement(G.Last), 0,
            " ::distwar::reduceBlock(" + SlotsName + ", " + Batch + ", " +
                First.KeyText + ", " + ModeName + ", " + AddrName + ");",
            endRank(G));
}

void GroupEdits::braceBody(const Stmt *Scope) {
  assert(!isa<CompoundStmt>(Scope) && "a block has its braces");
  Edits.add(Where.scopeBegin(Scope), 0, "{ ", RankPrologue);
  Edits.add(Where.scopeEnd(Scope), 0, " }", RankBodyEnd);
}

/// The tables, their clearing and their address lambdas before the body,
/// which runs as a lambda (so that a thread that returns still reaches the
/// flush), and the flushes after it (GENERATED_CODE.md, section 10).
void GroupEdits::writeBlockScopes() {
  for (auto &[Kernel, Scope] : BlockScopes) {
    const auto *Body = cast<CompoundStmt>(Kernel->getBody());
    Edits.add(Body->getLBracLoc().getLocWithOffset(1), 0, Scope.Head + " [&] {",
              RankPrologue);
    Edits.add(Body->getRBracLoc(), 0, "}();" + Scope.Tail + " ", RankReduce);
  }
}

void GroupEdits::writeVersions(const std::vector<GroupPlan> &Plans,
                               llvm::ArrayRef<size_t> Order) {
  llvm::MapVector<const ForStmt *, VersionedLoop> Loops;
  for (size_t I : Order) {
    const GroupPlan &P = Plans[I];
    if (!P.Versioned)
      continue;
    VersionedLoop &V = Loops[P.Versioned->Loop];
    V.Loop = P.Versioned;
    for (size_t S : P.Group->Sites)
      V.Adds.push_back(versionedAddressText(Sites[S], Ctx));
    for (const Expr *Read : P.VersionedReads)
      if (!llvm::is_contained(V.Reads, Read))
        V.Reads.push_back(Read);
  }
  for (auto &[Loop, V] : Loops)
    planChannelVersion(Edits, Where, Ctx, V);
}

void GroupEdits::writeCursors(const FunctionDecl *Function,
                              const ForStmt *Loop) {
  planCursorEdits(Ctx, Function, Loop, Edits, Cursors);
}

void GroupEdits::writeFloor(llvm::ArrayRef<size_t> Floored) {
  auto FloorCallee = [&](size_t I) {
    return "::distwar::floorAdd<" + Sites[I].TypeText + ">";
  };
  for (size_t I : Floored) {
    const Expr *Callee = Sites[I].Call->getCallee();
    if (!Sites[I].Invocation)
      Edits.replaceTokens(Callee->getBeginLoc(), Callee->getEndLoc(),
                          FloorCallee(I));
  }
  Edits.replaceInvocations(Sites, Floored, FloorCallee,
                           [](size_t) { return std::string(); });
}

/// `(table` or, where a site starts elsewhere than 0,
/// `_INITIAL(table, (0, 33, ...)`.
static std::string initialValues(const std::string &Table,
                                 llvm::ArrayRef<int> Initial) {
  if (llvm::all_of(Initial, [](int T) { return T == 0; }))
    return "(" + Table;
  std::string Text = "_INITIAL(" + Table + ", (";
  for (size_t K = 0; K < Initial.size(); ++K)
    Text += (K ? ", " : "") + std::to_string(Initial[K]);
  return Text + ")";
}

/// The prologue of \p File. A header's table has its own guard: the
/// prologue lies before the header's include guard, and a second inclusion
/// must not define the table again. \p Initial holds each site's starting
/// threshold; where one is not 0, the table is written with them.
void GroupEdits::prologue(FileID File, llvm::ArrayRef<std::string> SiteNames,
                          llvm::ArrayRef<int> Initial) {
  assert(Initial.size() == SiteNames.size() && "a value per site");
  bool Main = File == SM.getMainFileID();
  std::string Table = tableOf(File);
  std::string Text = "#include <distwar/runtime.cuh> // distwar-rewrite: "
                     "batched gradient reductions\n";
  if (!SiteNames.empty()) {
    std::string Guard = "DISTWAR_DEFINED_" + Table;
    if (!Main)
      Text += "#ifndef " + Guard + "\n#define " + Guard + "\n";
    Text += "DISTWAR_SITES" + initialValues(Table, Initial);
    for (const std::string &Name : SiteNames)
      Text += ", \"" + escapeString(Name) + "\"";
    Text += ");\n";
    if (!Main)
      Text += "#endif\n";
  }
  Text += Edits.lineDirective(File, 1) + "\n";
  // A UTF-8 byte-order mark stays the file's first bytes.
  unsigned Start = SM.getBufferData(File).starts_with("\xEF\xBB\xBF") ? 3 : 0;
  Edits.add(SM.getLocForStartOfFile(File).getLocWithOffset(Start), 0, Text,
            RankPrologue);
}

/// The unroll pragma of a channel loop: whole, so that its slots are
/// constants, up to the runtime's batch limit; a longer loop (known only
/// per instantiation when its bound is a template parameter) stays rolled
/// (distwar::kChannelUnroll, batch.cuh).
/// The formatted form writes it as a directive on a line of its own where
/// the loop begins its line; the compact form (and a loop after other
/// code) as the _Pragma operator.
std::string GroupEdits::unrollPragma(const ChannelLoop &CL,
                                     const std::string &Trip) {
  std::string Pragma = "unroll ::distwar::kChannelUnroll<" + Trip + ">";
  if (std::optional<int64_t> Count = constantTripCount(CL, Ctx))
    Pragma = *Count <= kMaxBatchFields ? "unroll" : "unroll 1";
  if (!Edits.layout().compact() && Edits.beginsLine(CL.Loop->getBeginLoc()))
    return "#pragma " + Pragma + "\n";
  return "_Pragma(\"" + Pragma + "\") ";
}

/// Writes each batched group in text order, with the braces of a loop body
/// written without them that holds groups; then the shared-array cursors of
/// the loops that hold them, the block scopes, the versions and each file's
/// prologue.
static void writeGroups(GroupEdits &E, const RewritePlan &Plan,
                        const std::vector<AtomicSite> &Sites) {
  // Each file has its own table (GENERATED_CODE.md, 2b), its names in text
  // order.
  std::map<FileID, std::vector<std::string>> Names;
  std::map<FileID, std::vector<int>> Initial;
  for (size_t I : Plan.Order) {
    const GroupPlan &P = Plan.Groups[I];
    E.write(P);
    if (P.BracesBody)
      E.braceBody(P.Group->Scope);
    assert(Names[P.File].size() == P.TableIndex && "tables in text order");
    Names[P.File].push_back(P.Name);
    Initial[P.File].push_back(P.InitialThreshold);
  }
  llvm::SetVector<std::pair<const FunctionDecl *, const ForStmt *>> Loops;
  for (size_t I : Plan.Order) {
    const SiteGroup &G = *Plan.Groups[I].Group;
    if (const auto *Loop = dyn_cast<ForStmt>(iterationOf(Sites[G.Sites[0]])))
      Loops.insert({G.Function, Loop});
  }
  for (auto [Function, Loop] : Loops)
    E.writeCursors(Function, Loop);
  E.writeBlockScopes();
  E.writeVersions(Plan.Groups, Plan.Order);
  for (auto &[File, FileNames] : Names)
    E.prologue(File, FileNames, Initial[File]);
}

llvm::Expected<PlannedEdits>
planEdits(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
          const RewritePlan &Plan, llvm::StringRef FilePath,
          const EditableHeaders *Headers, const OutputLayout &Layout) {
  PlannedEdits Out;
  GroupEdits E(Ctx, Sites, FilePath, Headers, Layout);
  const SourceManager &SM = Ctx.getSourceManager();
  if (Plan.Floor) {
    E.writeFloor(Plan.FloorSites);
    for (FileID File : E.edits().editedFiles())
      E.prologue(File, {}, {});
  } else {
    writeGroups(E, Plan, Sites);
  }
  if (E.edits().landedOutside())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "an edit would land inside a macro expansion or a file that may not "
        "be edited; nothing written");
  for (FileID File : E.edits().editedFiles()) {
    llvm::Expected<tooling::Replacements> R = E.edits().finish(File);
    if (!R)
      return R.takeError();
    if (File == SM.getMainFileID())
      Out.Edits = std::move(*R);
    else
      Out.HeaderEdits[File] = std::move(*R);
  }
  return Out;
}

} // namespace distwar
