//===- EditPlanner.cpp - text edits for decided groups --------------------===//

#include "Emit/EditPlanner.h"
#include "Analysis/AstQueries.h"
#include "Analysis/EditPoints.h"
#include "Decide/BlockScope.h"
#include "Decide/GroupSafety.h"
#include "Decide/SharedMatch.h"
#include "Decide/StripMining.h"
#include "Decide/VariantChoice.h"
#include "Emit/BatchType.h"
#include "Emit/ChannelVersions.h"
#include "Emit/CursorEdits.h"
#include "Emit/DeferredAddress.h"
#include "Emit/ExprText.h"
#include "Emit/SiteTableNames.h"
#include "distwar/threshold_values.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include <cassert>
#include <map>

using namespace clang;

namespace distwar {

namespace {

std::string joinSum(llvm::ArrayRef<std::string> Terms, unsigned Constant,
                    bool KeepZero) {
  std::string Out = llvm::join(Terms, " + ");
  if (Terms.empty())
    return std::to_string(Constant);
  if (Constant || KeepZero)
    Out += " + " + std::to_string(Constant);
  return Out;
}

/// The names a butterfly group declares.
struct ButterflyNames {
  std::string Batch, Reached, Key, Live;
};

class Planner {
public:
  Planner(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
          llvm::StringRef FilePath, const EditableHeaders *Headers,
          const OutputLayout &Layout, bool BlockAllowed)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites), FilePath(FilePath),
        Headers(Headers), Table(siteTableName(FilePath)),
        Edits(Ctx, FilePath, Headers, Layout), Where(Ctx, Sites),
        BlockAllowed(BlockAllowed) {}

  /// The file that holds \p G's function: the main file or a header.
  FileID fileOf(const SiteGroup &G) const { return Where.fileOf(G); }

  /// The table that \p File's batched calls read (GENERATED_CODE.md, 1, 2b).
  std::string tableOf(FileID File) const {
    if (File == SM.getMainFileID())
      return siteTableName(FilePath);
    return siteTableIdentifier(Headers->at(File));
  }

  /// The site-name prefix of \p File's groups: "" in the main file, the
  /// header's relative path and ':' in a header.
  std::string namePrefix(FileID File) const {
    return File == SM.getMainFileID() ? "" : Headers->at(File) + ":";
  }

  EditList &edits() { return Edits; }

  /// The group's edits; fills the slot and size texts. \p Chain: the
  /// group's shared-match chain (SharedMatch.h), 0 for none.
  void plan(SiteGroup &G, unsigned K, unsigned TableIndex, unsigned Chain,
            PlannedEdits &Out, VariantDecision *D) {
    Table = tableOf(fileOf(G));
    std::string Batch = "distwar_batch" + std::to_string(K);
    std::string Size = planSlots(G, Batch, Out);
    SizeTexts.push_back(Size);
    if (D && D->Kind != GroupVariant::Serial) {
      planButterfly(G, K, TableIndex, Size, *D);
      return;
    }
    if (BlockAllowed) {
      std::string AddrOf;
      Verdict Why = blockReason(G, Size, AddrOf);
      if (Why == Reason::None) {
        planBlock(G, K, TableIndex, Size, Batch, AddrOf);
        return;
      }
      if (D)
        D->BlockNote = Why;
    }
    std::optional<std::string> AddrOf = deferredAddresses(G, "");
    Edits.add(Where.statementBegin(G.First), 0,
              batchTypeOf(G, AddrOf.has_value(), Size) + " " + Batch + "; ",
              RankBatch);
    std::string Arguments =
        Batch + ", " + versionedKeyText(Sites[G.Sites.front()], Ctx) + ", " +
        threshold(TableIndex) + (AddrOf ? ", " + *AddrOf : "");
    if (!Chain && planJointPart(G, Arguments))
      return;
    std::string Peers = Chain ? keptPeers(G, K, Chain) : "";
    Edits.add(Where.afterStatement(G.Last), 0,
              " ::distwar::reduceSerial(" + Arguments + Peers + ");",
              endRank(G));
  }

  /// The serial groups of each versioned loop, counted before planning:
  /// where a loop holds two or more, they are reduced together
  /// (`reduceSerialTogether`, GENERATED_CODE.md, section 11).
  void countJointParts(const std::vector<SiteGroup> &Groups,
                       llvm::ArrayRef<size_t> Accepted) {
    for (size_t I : Accepted)
      if (const ChannelLoop *CL = versionedLoopOf(Sites, Groups[I]))
        ++Joints[CL->Loop].Parts;
  }

  /// Plans \p G's reduction as a part of its versioned loop's joint
  /// reduction; false when it is reduced alone.
  bool planJointPart(SiteGroup &G, const std::string &Arguments) {
    const ChannelLoop *CL = versionedLoopOf(Sites, G);
    if (!CL)
      return false;
    Joint &J = Joints[CL->Loop];
    if (J.Parts < 2)
      return false;
    SourceLocation End = Where.afterStatement(G.Last);
    std::string Part = "::distwar::serialPart(" + Arguments + ")";
    if (J.Planned++ == 0) {
      Edits.add(End, 0, " ::distwar::reduceSerialTogether(" + Part, endRank(G));
      Edits.add(End, 0, ");", RankJointClose);
      J.First = G.Name;
    } else {
      Edits.add(End, 0, ", " + Part, endRank(G));
      G.ReducedWith = J.First;
    }
    return true;
  }

  /// The last argument of a serial reduction in a shared-match chain: the
  /// chain's first serial group declares its KeptPeers and keeps its match
  /// there, later ones reuse it (a group of the chain that went to the
  /// block strategy takes no part).
  std::string keptPeers(SiteGroup &G, unsigned K, unsigned Chain) {
    auto [It, New] = ChainPeers.try_emplace(Chain);
    if (!New) {
      G.SharesMatchWith = It->second.Group;
      return ", ::distwar::reusePeers(" + It->second.Var + ")";
    }
    It->second = {"distwar_peers" + std::to_string(K), G.Name};
    Edits.add(Where.statementBegin(G.First), 0,
              "::distwar::KeptPeers " + It->second.Var + "; ", RankBatch);
    return ", ::distwar::keepPeers(" + It->second.Var + ")";
  }

  /// The braces around a loop body written without them, which is the
  /// scope of groups planned just before (their batches and reductions are
  /// inside).
  void braceBody(const Stmt *Scope) {
    assert(!isa<CompoundStmt>(Scope) && "a block has its braces");
    Edits.add(Where.scopeBegin(Scope), 0, "{ ", RankPrologue);
    Edits.add(Where.scopeEnd(Scope), 0, " }", RankBodyEnd);
  }

  /// The wrapper of every kernel that holds block groups: the tables, their
  /// clearing and their address lambdas before the body, which runs as a
  /// lambda (so that a thread that returns still reaches the flush), and
  /// the flushes after it (GENERATED_CODE.md, section 10).
  void planBlockScopes() {
    for (auto &[Kernel, Scope] : BlockScopes) {
      const auto *Body = cast<CompoundStmt>(Kernel->getBody());
      Edits.add(Body->getLBracLoc().getLocWithOffset(1), 0,
                Scope.Head + " [&] {", RankPrologue);
      Edits.add(Body->getRBracLoc(), 0, "}();" + Scope.Tail + " ",
                RankReduce);
    }
  }

  /// The versions of every loop of run-time trip count that holds one of
  /// the \p Accepted groups (ChannelVersions.h), in source order.
  void planVersions(const std::vector<SiteGroup> &Groups,
                    llvm::ArrayRef<size_t> Accepted) {
    llvm::MapVector<const ForStmt *, VersionedLoop> Loops;
    for (size_t I : Accepted) {
      const ChannelLoop *CL = versionedLoopOf(Sites, Groups[I]);
      if (!CL)
        continue;
      VersionedLoop &V = Loops[CL->Loop];
      V.Loop = CL;
      for (size_t S : Groups[I].Sites)
        V.Adds.push_back(versionedAddressText(Sites[S], Ctx));
      for (const Expr *Read : versionedLoopReads(Sites, Groups[I]))
        if (!llvm::is_contained(V.Reads, Read))
          V.Reads.push_back(Read);
    }
    for (auto &[Loop, V] : Loops)
      planChannelVersion(Edits, Where, Ctx, V);
  }

  void planFloor(llvm::ArrayRef<size_t> Floored) {
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

  bool floorEditable(const AtomicSite &S) const {
    const Expr *Callee = S.Call->getCallee();
    SourceLocation Where = SM.getExpansionLoc(S.Call->getBeginLoc());
    return S.IsDeviceAdd && S.Why != Reason::UsedResult &&
           Edits.editable(SM.getFileID(Where)) &&
           SM.getFileID(Where) ==
               SM.getFileID(SM.getExpansionLoc(S.Function->getLocation())) &&
           S.Why != Reason::HeaderNotEditable &&
           S.Why != Reason::HeaderEnteredTwice &&
           S.Why != Reason::AlreadyRewritten && S.Why != Reason::OptedOut &&
           !S.TypeText.empty() &&
           S.TypeText.find('<') == std::string::npos &&
           (S.Invocation || (Callee->getBeginLoc().isFileID() &&
                             Callee->getEndLoc().isFileID()));
  }

  /// The prologue of \p File. A header's table has its own guard: the
  /// prologue lies before the header's include guard, and a second inclusion
  /// must not define the table again. \p Initial holds each site's starting
  /// threshold; where one is not 0, the table is written with them.
  void prologue(FileID File, llvm::ArrayRef<std::string> SiteNames,
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
    unsigned Start =
        SM.getBufferData(File).starts_with("\xEF\xBB\xBF") ? 3 : 0;
    Edits.add(SM.getLocForStartOfFile(File).getLocWithOffset(Start), 0, Text,
              RankPrologue);
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

  /// Shared-array cursors in each loop that holds a batched group.
  void planCursors(const FunctionDecl *Function, const ForStmt *Loop) {
    planCursorEdits(Ctx, Function, Loop, Edits, Cursors);
  }

  std::vector<std::string> SizeTexts;

private:
  /// Each site's slot in the batch (Out.SlotTexts, Slots), its call turned
  /// into the batch's set; returns the batch's size expression.
  std::string planSlots(const SiteGroup &G, const std::string &Batch,
                        PlannedEdits &Out) {
    std::vector<std::string> ChannelTerms;
    unsigned Constant = 0;
    Slots.clear();
    for (size_t I : G.Sites) {
      const AtomicSite &S = Sites[I];
      std::string Slot;
      if (S.Channel) {
        Slot = channelSlot(I, *S.Channel, ChannelTerms, Constant);
      } else {
        Slot = joinSum(ChannelTerms, Constant++, true);
        Slots.push_back({I, Slot, "", ""});
      }
      Out.SlotTexts[I] = Slot;
      if (S.Invocation)
        continue;
      const Expr *Callee = S.Call->getCallee();
      Edits.replaceTokens(Callee->getBeginLoc(), Callee->getEndLoc(),
                          Batch + ".set");
      Edits.add(Where.firstArgBegin(S.Call), 0, Slot + ", ", RankSlot);
    }
    Edits.replaceInvocations(
        Sites, G.Sites, [&](size_t) { return Batch + ".set"; },
        [&](size_t I) { return Out.SlotTexts[I] + ", "; });
    return joinSum(ChannelTerms, Constant, false);
  }

  /// The slot of channel-loop site \p I: its loop variable past the slots
  /// before it; the loop gets an unroll pragma if it has none.
  std::string channelSlot(size_t I, const ChannelLoop &CL,
                          std::vector<std::string> &ChannelTerms,
                          unsigned Constant) {
    std::string Var = CL.Var->getName().str();
    std::string Upper = parenthesized(CL.UpperText);
    std::string Lower = parenthesized(CL.LowerText);
    std::string Before = joinSum(ChannelTerms, Constant, false);
    std::string Slot =
        sumText(Before, CL.LowerIsZero ? Var : "(" + Var + " - " + Lower + ")");
    Slots.push_back(
        {I, Before,
         CL.LowerIsZero ? Upper : "(" + Upper + " - " + Lower + ")",
         CL.LowerText});
    ChannelTerms.push_back(Slots.back().Extent);
    if (!CL.HasUnrollPragma && Pragmas.insert(CL.Loop).second)
      Edits.add(CL.Loop->getBeginLoc(), 0,
                unrollPragma(CL, Slots.back().Extent), RankPragma);
    return Slot;
  }

  /// The unroll pragma of a channel loop: whole, so that its slots are
  /// constants, up to the runtime's batch limit; a longer loop (known only
  /// per instantiation when its bound is a template parameter) stays rolled
  /// (distwar::kChannelUnroll, batch.cuh).
  /// The formatted form writes it as a directive on a line of its own where
  /// the loop begins its line; the compact form (and a loop after other
  /// code) as the _Pragma operator.
  std::string unrollPragma(const ChannelLoop &CL, const std::string &Trip) {
    std::string Pragma = "unroll ::distwar::kChannelUnroll<" + Trip + ">";
    if (std::optional<int64_t> Count = constantTripCount(CL, Ctx))
      Pragma = *Count <= kMaxBatchFields ? "unroll" : "unroll 1";
    if (!Edits.layout().compact() && Edits.beginsLine(CL.Loop->getBeginLoc()))
      return "#pragma " + Pragma + "\n";
    return "_Pragma(\"" + Pragma + "\") ";
  }

  /// The rank of the text that ends \p G's region: in a loop body without
  /// braces, before what statements around it add where they end too (the
  /// body's closing brace follows it).
  static Rank endRank(const SiteGroup &G) {
    return isa<CompoundStmt>(G.Scope) ? RankReduce : RankBodyEnd;
  }

  std::string threshold(unsigned TableIndex) const {
    return "DISTWAR_SITE_THRESHOLD(" + Table + ", " +
           std::to_string(TableIndex) + ")";
  }

  /// The butterfly: batch, key and flags declared at the loop body's start,
  /// guards around what lanes skipped, the reduction at the body's top level
  /// (GENERATED_CODE.md, section 6). Every edit keeps its newlines.
  void planButterfly(SiteGroup &G, unsigned K, unsigned TableIndex,
                     const std::string &Size, const VariantDecision &D) {
    const FlagPlan &F = D.Flags;
    std::string Suffix = std::to_string(K);
    ButterflyNames N{"distwar_batch" + Suffix, "distwar_reached" + Suffix,
                     "distwar_key" + Suffix, "distwar_active" + Suffix};
    // The live flag is the first group's of the body; later groups of the
    // iteration share it (the flag only falls, so at each reduction it is
    // that group's activity).
    if (F.Segment == 0)
      LiveNames[F.Body] = N.Live;
    else
      N.Live = LiveNames[F.Body];
    // Lanes that completed the group (or its first part) reduce, whether or
    // not they are still live at the reduction.
    bool UsesReached = F.GroupUnderIf || !F.PartEnds.empty();
    std::string Decls;
    if (UsesReached)
      Decls += " bool " + N.Reached + " = false;";
    std::optional<StripLoop> Strip = stripLoopOf(Ctx, Sites, G, D);
    // A strip keeps each lap's addresses (a deferred-address lambda would see
    // the last lap's variables only), and its reduction takes no key.
    std::optional<std::string> AddrOf =
        Strip ? std::nullopt : deferredAddresses(G, N.Key);
    if (Strip)
      N.Key.clear();
    std::string BatchType = batchTypeOf(G, AddrOf.has_value(), Size);
    Decls += " " + BatchType + " " + N.Batch + ";";
    if (!N.Key.empty())
      Decls += " " + F.KeyType + " " + N.Key + F.KeyInit + ";";
    if (F.Segment == 0)
      planBodyHead(F, N.Live, Decls);
    else
      // Just after the previous group's reduction, at the body's top level.
      Edits.add(Where.afterStatement(F.PrevHolder), 0,
                Decls + (F.LiveInit.empty() ? "" : " if (" + N.Live + ") {"),
                RankReduce);
    planKeyCapture(G, F, N);
    std::string Active = UsesReached           ? N.Reached
                         : !F.LiveInit.empty() ? N.Live
                                               : std::string("true");
    std::string Call = Strip ? planStrip(G, *Strip, K, TableIndex, BatchType, F)
                             : std::string("::distwar::") +
                                   (D.Kind == GroupVariant::ButterflyUniform
                                        ? "reduceButterflyUniform("
                                        : "reduceButterfly(") +
                                   N.Batch + ", " + Active + ", " + N.Key +
                                   ", " + threshold(TableIndex) +
                                   (AddrOf ? ", " + *AddrOf : "") + ");";
    planReduction(G, F, N, UsesReached, Call);
  }

  /// A strip (GENERATED_CODE.md, section 12): the loop steps over kStripLaps
  /// iterations at a time, and its body runs as the laps of a lap loop, each
  /// with the counter redeclared as the lap's iteration; a lap whose
  /// iteration fails the condition ends the lap loop and then the loop
  /// itself, so that the condition is never tested past the first failure.
  /// Each lap keeps its batch; the laps are reduced together after the lap
  /// loop, as the warp's version of the loop says (runStrips, around it).
  /// Returns what replaces the group's reduction: the lap's keep.
  std::string planStrip(SiteGroup &G, const StripLoop &S, unsigned K,
                        unsigned TableIndex, const std::string &BatchType,
                        const FlagPlan &F) {
    std::string Suffix = std::to_string(K);
    std::string Strip = "distwar_strip" + Suffix, Lap = "distwar_lap" + Suffix,
                Base = "distwar_base" + Suffix, End = "distwar_end" + Suffix,
                Full = "distwar_full" + Suffix;
    std::string Counter = S.Counter->getNameAsString();
    const Expr *Inc = S.Loop->getInc();
    Edits.replaceTokens(Inc->getBeginLoc(), Inc->getEndLoc(),
                        Counter + " += ::distwar::kStripLaps");
    std::string Open =
        " ::distwar::Strip<" + BatchType + ", ::distwar::kStripLaps> " + Strip +
        "; bool " + End + " = false; const auto " + Base + " = " + Counter +
        "; _Pragma(\"unroll\") for (int " + Lap + " = 0; " + Lap +
        " < ::distwar::kStripLaps; ++" + Lap + ") { const decltype(" + Base +
        ") " + Counter + " = " + Base + " + " + Lap + "; if (" + Lap +
        " > 0 && !(" + S.CondText + ")) { " + End + " = true; break; }";
    Edits.add(Where.scopeBegin(F.Body), 0, Open, RankStripOpen);
    Edits.add(Where.scopeEnd(F.Body), 0,
              "} ::distwar::reduceStrip(" + Strip + ", " + Full + "); if (" +
                  End + ") break; ",
              RankStripClose);
    // The loop as a lambda of its own, not inside runStrips' parentheses,
    // where no #line directive may go.
    std::string Versions = "distwar_strips" + Suffix;
    Edits.add(S.Loop->getBeginLoc(), 0,
              "{ auto " + Versions + " = [&](auto " + Full + ") { ",
              RankStripVersionsOpen);
    Edits.add(Where.afterStatement(S.Loop), 0,
              " }; ::distwar::runStrips(" + threshold(TableIndex) + ", " +
                  Versions + "); }",
              RankStripVersionsClose);
    G.Strip = true;
    return Strip + ".keep(" + Lap + ", distwar_batch" + Suffix + ");";
  }

  /// The first group of a loop body: the live flag, the group's
  /// declarations and the hoisted variables at the body's start, the guards
  /// that open there, and what becomes the live flag (a `continue`, an early
  /// return, the lane-dependent terms of the loop's condition).
  void planBodyHead(const FlagPlan &F, const std::string &Live,
                    const std::string &Decls) {
    std::string Head;
    if (!F.LiveInit.empty())
      Head += " bool " + Live + " = " + F.LiveInit + ";";
    Head += Decls + hoistedDeclarations(F);
    std::string AnyGuard = " if (::distwar::anyActive(" + Live + ")) {";
    if (F.AnyFromStart)
      Head += AnyGuard;
    else if (F.GuardFromStart)
      Head += " if (" + Live + ") {";
    // Before a body without braces, after the `{ ` that braceBody adds.
    if (!isa<CompoundStmt>(F.Body))
      Head = llvm::StringRef(Head).ltrim().str() + " ";
    Edits.add(Where.scopeBegin(F.Body), 0, Head, RankBatch);
    if (!F.RemovedTerms.empty()) {
      std::string Cond;
      for (const Expr *T : F.KeptTerms)
        Cond += (Cond.empty() ? "" : " && ") + sourceText(T, Ctx);
      Edits.replaceKeepingLines(
          F.Cond->getBeginLoc(),
          Lexer::getLocForEndOfToken(F.Cond->getEndLoc(), 0, SM,
                                     Ctx.getLangOpts()),
          Cond);
    }
    for (const ContinueStmt *C : F.Continues)
      Edits.replaceTokens(C->getBeginLoc(), C->getBeginLoc(),
                          Live + " = false");
    if (F.EarlyReturn)
      Edits.replaceKeepingLines(
          F.EarlyReturn->getBeginLoc(), Where.afterStatement(F.EarlyReturn),
          "bool distwar_returned = (" +
              sourceText(F.EarlyReturn->getCond(), Ctx) + ");");
    for (const Stmt *S : F.GuardAfter) {
      if (S == F.AnyAfter)
        Edits.add(Where.afterStatement(S), 0,
                  (F.CloseBeforeAny ? " " + std::string(F.CloseBeforeAny, '}')
                                    : std::string()) +
                      AnyGuard,
                  RankBatch);
      else if (!llvm::is_contained(F.Unguarded, S))
        Edits.add(Where.afterStatement(S), 0, " if (" + Live + ") {",
                  RankBatch);
    }
  }

  /// The variables declared before the group and used after its guards,
  /// declared at the body's start: `const float G = e;` becomes `G = e;`.
  std::string hoistedDeclarations(const FlagPlan &F) {
    std::string Text;
    for (const DeclStmt *DS : F.Hoisted) {
      for (const Decl *Dc : DS->decls()) {
        const auto *V = cast<VarDecl>(Dc);
        Text += " " +
                V->getType().getUnqualifiedType().getAsString(
                    Ctx.getPrintingPolicy()) +
                " " + V->getName().str() + ";";
      }
      const auto *V0 = cast<VarDecl>(*DS->decl_begin());
      Edits.replaceKeepingLines(DS->getBeginLoc(), V0->getLocation(), "");
    }
    for (const DeclStmt *DS : F.HoistedWhole) {
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange Range = CharSourceRange::getTokenRange(
          DS->getBeginLoc(), DS->getEndLoc());
      Text += " " + Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
      Edits.replaceKeepingLines(
          DS->getBeginLoc(),
          Lexer::getLocForEndOfToken(DS->getEndLoc(), 0, SM, Ctx.getLangOpts()),
          "");
    }
    return Text;
  }

  /// Where the group (or its first part) completes, the key is captured and
  /// Reached set; each part of a group split at continues closes its guards
  /// and reopens one for the next.
  void planKeyCapture(const SiteGroup &G, const FlagPlan &F,
                      const ButterflyNames &N) {
    std::string Capture = keyCapture(G, N);
    if (F.GroupUnderIf)
      Edits.add(Where.afterStatement(G.Last), 0,
                Capture + " " + N.Reached + " = true;", RankReduce);
    for (const FlagPlan::PartEnd &E : F.PartEnds) {
      assert(!F.LiveInit.empty() &&
             "parts joined across continues have a live flag");
      std::string Text = &E == &F.PartEnds.front()
                             ? Capture + " " + N.Reached + " = true;"
                             : std::string();
      if (E.GuardsOpen)
        Text += " " + std::string(E.GuardsOpen, '}');
      Edits.add(Where.afterStatement(E.Holder), 0,
                Text + " if (" + N.Live + ") {", RankReduce);
    }
  }

  /// ` distwar_keyK = <the group's key>;`
  std::string keyCapture(const SiteGroup &G, const ButterflyNames &N) const {
    if (N.Key.empty()) // a strip's reduction takes no key
      return "";
    return " " + N.Key + " = " + Sites[G.Sites.front()].KeyText + ";";
  }

  /// After the holder: the key captured (unless a Reached flag did), the
  /// open guards closed, \p Call, and the guard of the body's trailing
  /// statements after the last group.
  void planReduction(const SiteGroup &G, const FlagPlan &F,
                     const ButterflyNames &N, bool UsesReached,
                     const std::string &Call) {
    std::string Tail = UsesReached ? "" : keyCapture(G, N);
    Tail += " " + std::string(F.GuardsOpen, '}');
    if (F.GuardsOpen)
      Tail += " ";
    Tail += Call;
    bool LastSegment = F.Segment + 1 == F.Segments;
    if (F.GuardTrailing && LastSegment)
      Tail += " if (" + N.Live + ") {";
    Edits.add(Where.afterStatement(F.Holder), 0, Tail, endRank(G));
    if (F.GuardTrailing && LastSegment)
      Edits.add(Where.scopeEnd(F.Body), 0, "} ", RankReduce);
  }

  /// Why \p G (serial, its slots planned) may not use the block strategy,
  /// or None with its address lambda in \p AddrOf.
  Verdict blockReason(const SiteGroup &G, const std::string &Size,
                      std::string &AddrOf) {
    if (Reason R = blockGroupReason(Sites, G, Size); R != Reason::None)
      return R;
    auto [It, New] = KernelVerdicts.try_emplace(G.Function);
    if (New)
      It->second = blockScopeReason(G.Function);
    if (It->second != Reason::None)
      return It->second;
    if (auto Scope = BlockScopes.find(G.Function);
        Scope != BlockScopes.end() && Scope->second.Tables == kMaxBlockTables)
      return Reason::BlockTablesFull;
    if (Verdict Why = blockDeferralReason(Sites, G); Why != Reason::None)
      return Why;
    const auto *Body = cast<CompoundStmt>(G.Function->getBody());
    FileID File = fileOf(G);
    if (!Body->getLBracLoc().isFileID() || !Body->getRBracLoc().isFileID() ||
        SM.getFileID(Body->getLBracLoc()) != File ||
        SM.getFileID(Body->getRBracLoc()) != File)
      return Reason::MacroExpansion;
    std::optional<std::string> Lambda =
        blockAddressLambda(Ctx, Sites, G, Slots);
    if (!Lambda)
      return Reason::BlockAddress;
    AddrOf = std::move(*Lambda);
    return Reason::None;
  }

  /// A block group: values-only batch, reduceBlock with the kernel's table
  /// and address lambda, declared in the kernel's wrapper.
  void planBlock(SiteGroup &G, unsigned K, unsigned TableIndex,
                 const std::string &Size, const std::string &Batch,
                 const std::string &AddrOf) {
    const AtomicSite &First = Sites[G.Sites.front()];
    BlockScope &Scope = BlockScopes[G.Function];
    std::string Suffix = std::to_string(K);
    std::string SlotsName = "distwar_slots" + Suffix;
    std::string ModeName = "distwar_mode" + Suffix;
    std::string AddrName = "distwar_addr" + Suffix;
    // The site's value is read once: the table's clearing, every reduction
    // and the flush must agree on whether the table is used.
    Scope.Head += " __shared__ ::distwar::BlockSlots<" + First.TypeText +
                  ", " + Size + "> " + SlotsName +
                  "; const ::distwar::UniformThreshold " + ModeName + " = " +
                  threshold(TableIndex) + "; ::distwar::blockBegin(" +
                  SlotsName + ", " + ModeName + "); auto " + AddrName +
                  " = " + AddrOf + ";";
    Scope.Tail += " ::distwar::blockEnd(" + SlotsName + ", " + ModeName +
                  ", " + AddrName + ");";
    ++Scope.Tables;
    Edits.add(Where.statementBegin(G.First), 0,
              batchTypeOf(G, /*Deferred=*/true, Size) + " " + Batch + "; ",
              RankBatch);
    Edits.add(Where.afterStatement(G.Last), 0,
              " ::distwar::reduceBlock(" + SlotsName + ", " + Batch + ", " +
                  First.KeyText + ", " + ModeName + ", " + AddrName + ");",
              endRank(G));
    G.Block = true;
  }

  /// What the wrapper of one kernel declares before its body and runs
  /// after it.
  struct BlockScope {
    std::string Head, Tail;
    unsigned Tables = 0;
  };
  /// Tables a kernel gets: each at most the runtime's kBlockSlotsBudget
  /// (16 KB), within the 48 KB of static shared memory a block may have.
  static constexpr unsigned kMaxBlockTables = 2;
  std::map<const FunctionDecl *, BlockScope> BlockScopes;
  std::map<const FunctionDecl *, Verdict> KernelVerdicts;

  /// The current group's slots (plan() fills them) and its addrOf lambda.
  std::vector<DeferredSlot> Slots;
  std::optional<std::string> deferredAddresses(const SiteGroup &G,
                                               llvm::StringRef KeyVar) {
    return deferredAddressLambda(Ctx, Sites, G, Slots, KeyVar);
  }

  std::string batchTypeOf(const SiteGroup &G, bool Deferred,
                          const std::string &Size) {
    return batchType(Ctx, Sites, G, Slots, Where, Deferred, Size);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const std::vector<AtomicSite> &Sites;
  std::string FilePath;
  const EditableHeaders *Headers;
  std::string Table; ///< the current group's
  EditList Edits;
  llvm::DenseSet<const ForStmt *> Pragmas;
  /// Cursors declared so far in each file (CursorEdits.h).
  std::map<FileID, unsigned> Cursors;
  /// The live flag of each loop body whose groups share one.
  std::map<const Stmt *, std::string> LiveNames;
  /// Per versioned loop, its serial groups (Parts), those planned so far
  /// and the first one's name.
  struct Joint {
    unsigned Parts = 0, Planned = 0;
    std::string First;
  };
  std::map<const Stmt *, Joint> Joints;
  /// Per shared-match chain, its KeptPeers and the group that declared it.
  struct ChainHead {
    std::string Var, Group;
  };
  std::map<unsigned, ChainHead> ChainPeers;
  EditPoints Where;
  bool BlockAllowed;
};

} // namespace

/// Sorts \p Accepted by where the groups' regions end. Two that end at one
/// place are a loop body without braces and a statement that ends with it:
/// the inner one first, so that its reduction and closing brace come before
/// the outer one's text there.
static void sortByRegionEnd(std::vector<size_t> &Accepted,
                            const std::vector<SiteGroup> &Groups,
                            const SourceManager &SM) {
  llvm::stable_sort(Accepted, [&](size_t A, size_t B) {
    const Stmt *LastA = Groups[A].Last, *LastB = Groups[B].Last;
    if (LastA->getEndLoc() != LastB->getEndLoc())
      return SM.isBeforeInTranslationUnit(LastA->getEndLoc(),
                                          LastB->getEndLoc());
    return SM.isBeforeInTranslationUnit(LastB->getBeginLoc(),
                                        LastA->getBeginLoc());
  });
}

/// Names each accepted group and plans its edits, in source order, with the
/// braces of a loop body written without them that holds groups; then the
/// shared-array cursors of the loops that hold them and each file's prologue.
static void planGroups(Planner &P, const std::vector<AtomicSite> &Sites,
                       std::vector<SiteGroup> &Groups,
                       std::vector<VariantDecision> *Decisions,
                       PlannedEdits &Out, const SourceManager &SM) {
  std::vector<size_t> Accepted;
  for (size_t I = 0; I < Groups.size(); ++I)
    if (Groups[I].Why == Reason::None)
      Accepted.push_back(I);
  // Site names follow the batched calls in source order.
  sortByRegionEnd(Accepted, Groups, SM);
  // The groups of one loop body without braces come one after another here
  // (each one's region is the whole body): the braces go on with the last.
  llvm::DenseMap<const Stmt *, size_t> LastInBody;
  for (size_t I : Accepted)
    if (!isa<CompoundStmt>(Groups[I].Scope))
      LastInBody[Groups[I].Scope] = I;
  std::map<const FunctionDecl *, unsigned> PerFunction;
  std::vector<unsigned> Chains = sharedMatchChains(Sites, Groups, Decisions);
  P.countJointParts(Groups, Accepted);
  // Each file has its own table (GENERATED_CODE.md, 2b).
  std::map<FileID, std::vector<std::string>> Names;
  std::map<FileID, std::vector<int>> Initial;
  for (size_t I : Accepted) {
    SiteGroup &G = Groups[I];
    unsigned K = PerFunction[G.Function]++;
    FileID File = P.fileOf(G);
    G.Name = P.namePrefix(File) + Sites[G.Sites.front()].FunctionName + "#" +
             std::to_string(K);
    std::vector<std::string> &FileNames = Names[File];
    P.plan(G, K, FileNames.size(), Chains[I], Out,
           Decisions ? &(*Decisions)[I] : nullptr);
    if (auto It = LastInBody.find(G.Scope);
        It != LastInBody.end() && It->second == I)
      P.braceBody(G.Scope);
    Out.SizeTexts[I] = P.SizeTexts.back();
    FileNames.push_back(G.Name);
    bool StartsPlain = Decisions && (*Decisions)[I].StartNote != Reason::None;
    Initial[File].push_back(StartsPlain ? kNeverReduce : 0);
  }
  llvm::SetVector<std::pair<const FunctionDecl *, const ForStmt *>> Loops;
  for (size_t I : Accepted)
    if (const auto *Loop =
            dyn_cast<ForStmt>(iterationOf(Sites[Groups[I].Sites.front()])))
      Loops.insert({Groups[I].Function, Loop});
  for (auto [Function, Loop] : Loops)
    P.planCursors(Function, Loop);
  P.planBlockScopes();
  P.planVersions(Groups, Accepted);
  for (auto &[File, FileNames] : Names)
    P.prologue(File, FileNames, Initial[File]);
}

PlannedEdits planEdits(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                       std::vector<SiteGroup> &Groups, Variant V,
                       llvm::StringRef FilePath,
                       std::vector<VariantDecision> *Decisions,
                       const EditableHeaders *Headers,
                       const OutputLayout &Layout) {
  PlannedEdits Out;
  Out.SlotTexts.resize(Sites.size());
  Out.SizeTexts.resize(Groups.size());
  Planner P(Ctx, Sites, FilePath, Headers, Layout,
            V == Variant::Auto && Layout.BlockStrategy);
  const SourceManager &SM = Ctx.getSourceManager();
  if (V == Variant::Floor) {
    std::vector<size_t> Floored;
    for (size_t I = 0; I < Sites.size(); ++I)
      if (P.floorEditable(Sites[I]))
        Floored.push_back(I);
    P.planFloor(Floored);
    for (FileID File : P.edits().editedFiles())
      P.prologue(File, {}, {});
  } else {
    planGroups(P, Sites, Groups, Decisions, Out, SM);
  }
  if (P.edits().landedOutside()) {
    Out.Error = "an edit would land inside a macro expansion or a file that "
                "may not be edited; nothing written";
    return Out;
  }
  for (FileID File : P.edits().editedFiles()) {
    llvm::Expected<tooling::Replacements> R = P.edits().finish(File);
    if (!R) {
      Out.Error = llvm::toString(R.takeError());
      Out.Edits.clear();
      Out.HeaderEdits.clear();
      break;
    }
    if (File == SM.getMainFileID())
      Out.Edits = std::move(*R);
    else
      Out.HeaderEdits[File] = std::move(*R);
  }
  return Out;
}

} // namespace distwar
