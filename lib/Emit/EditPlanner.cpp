//===- EditPlanner.cpp - text edits for decided groups --------------------===//

#include "Emit/EditPlanner.h"
#include "Analysis/AstQueries.h"
#include "Analysis/EditPoints.h"
#include "Analysis/LoopExits.h"
#include "Decide/VariantChoice.h"
#include "Emit/DeferredAddress.h"
#include "Emit/SharedCursors.h"
#include "Emit/SiteTableNames.h"
#include "Find/MacroSites.h"
#include "Parse/SourcePaths.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include <cassert>
#include <map>

using namespace clang;

namespace distwar {

namespace {

/// Insertions at one offset are ordered by rank, then by planning order.
enum Rank {
  RankPrologue,
  RankReduce,
  RankBatch,
  RankPragma,
  RankSlot,
  RankCursor
};

struct Edit {
  FileID File;
  unsigned Offset = 0, Length = 0;
  std::string Text;
  Rank Order = RankSlot;
};

bool isSimpleToken(llvm::StringRef Text) {
  return llvm::all_of(
      Text, [](char C) { return llvm::isAlnum(C) || C == '_' || C == ':'; });
}

std::string joinSum(llvm::ArrayRef<std::string> Terms, unsigned Constant,
                    bool KeepZero) {
  std::string Out = llvm::join(Terms, " + ");
  if (Terms.empty())
    return std::to_string(Constant);
  if (Constant || KeepZero)
    Out += " + " + std::to_string(Constant);
  return Out;
}

std::string escapeString(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

class Planner {
public:
  Planner(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
          llvm::StringRef FilePath, const EditableHeaders *Headers)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites), FilePath(FilePath),
        Headers(Headers), Table(siteTableName(FilePath)), Where(Ctx, Sites) {}

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

  bool editable(FileID File) const {
    return File == SM.getMainFileID() || (Headers && Headers->count(File));
  }

  /// The unroll pragma of a channel loop: whole, so that its slots are
  /// constants, up to the runtime's batch limit; a longer loop (known only
  /// per instantiation when its bound is a template parameter) stays rolled
  /// (distwar::kChannelUnroll, batch.cuh).
  std::string unrollPragma(const ChannelLoop &CL, const std::string &Trip) {
    if (std::optional<int64_t> Count = constantTripCount(CL, Ctx))
      return *Count <= kMaxBatchFields ? "_Pragma(\"unroll\")"
                                       : "_Pragma(\"unroll 1\")";
    return "_Pragma(\"unroll ::distwar::kChannelUnroll<" + Trip + ">\")";
  }

  /// The group's edits; fills the slot and size texts.
  void plan(const SiteGroup &G, unsigned K, unsigned TableIndex,
            PlannedEdits &Out, const VariantDecision *D) {
    Table = tableOf(fileOf(G));
    std::string Batch = "distwar_batch" + std::to_string(K);
    std::vector<std::string> ChannelTerms;
    unsigned Constant = 0;
    Slots.clear();
    for (size_t I : G.Sites) {
      const AtomicSite &S = Sites[I];
      std::string Slot;
      if (S.Channel) {
        const ChannelLoop &CL = *S.Channel;
        std::string Var = CL.Var->getName().str();
        std::string Upper = isSimpleToken(CL.UpperText)
                                ? CL.UpperText
                                : "(" + CL.UpperText + ")";
        std::string Lower = isSimpleToken(CL.LowerText)
                                ? CL.LowerText
                                : "(" + CL.LowerText + ")";
        Slot = joinSum(ChannelTerms, Constant, false) + " + " +
               (CL.LowerIsZero ? Var : "(" + Var + " - " + Lower + ")");
        Slots.push_back(
            {I, joinSum(ChannelTerms, Constant, false),
             CL.LowerIsZero ? Upper : "(" + Upper + " - " + Lower + ")",
             Lower});
        ChannelTerms.push_back(Slots.back().Extent);
        if (!CL.HasUnrollPragma && Pragmas.insert(CL.Loop).second)
          add(CL.Loop->getBeginLoc(), 0,
              unrollPragma(CL, Slots.back().Extent) + " ", RankPragma);
      } else {
        Slot = joinSum(ChannelTerms, Constant++, true);
        Slots.push_back({I, Slot, "", ""});
      }
      Out.SlotTexts[I] = Slot;
      if (S.Invocation)
        continue;
      const Expr *Callee = S.Call->getCallee();
      replaceTokens(Callee->getBeginLoc(), Callee->getEndLoc(), Batch + ".set");
      add(Where.firstArgBegin(S.Call), 0, Slot + ", ", RankSlot);
    }
    replaceInvocations(
        G.Sites, [&](size_t) { return Batch + ".set"; },
        [&](size_t I) { return Out.SlotTexts[I] + ", "; });
    std::string Size = joinSum(ChannelTerms, Constant, false);
    const AtomicSite &First = Sites[G.Sites.front()];
    SizeTexts.push_back(Size);
    if (D && D->Kind != GroupVariant::Serial) {
      planButterfly(G, K, TableIndex, Size, *D);
      return;
    }
    std::optional<std::string> AddrOf = deferredAddresses(G, "");
    add(Where.statementBegin(G.First), 0,
        batchType(G, AddrOf.has_value(), Size) + " " + Batch + "; ", RankBatch);
    add(Where.afterStatement(G.Last), 0,
        " ::distwar::reduceSerial(" + Batch + ", " + First.KeyText +
            ", DISTWAR_SITE_THRESHOLD(" + Table + ", " +
            std::to_string(TableIndex) + ")" + (AddrOf ? ", " + *AddrOf : "") +
            ");",
        RankReduce);
  }

  /// The butterfly: batch, key and flags declared at the loop body's start,
  /// guards around what lanes skipped, the reduction at the body's top level
  /// (GENERATED_CODE.md, section 6). Every edit keeps its newlines.
  void planButterfly(const SiteGroup &G, unsigned K, unsigned TableIndex,
                     const std::string &Size, const VariantDecision &D) {
    const FlagPlan &F = D.Flags;
    const AtomicSite &First = Sites[G.Sites.front()];
    std::string Suffix = std::to_string(K);
    std::string Batch = "distwar_batch" + Suffix;
    std::string Reached = "distwar_reached" + Suffix;
    std::string Key = "distwar_key" + Suffix;
    const LangOptions &LO = Ctx.getLangOpts();

    // The live flag is the first group's of the body; later groups of the
    // iteration share it (the flag only falls, so at each reduction it is
    // that group's activity).
    std::string Live = "distwar_active" + Suffix;
    if (F.Segment == 0)
      LiveNames[F.Body] = Live;
    else
      Live = LiveNames[F.Body];
    bool HasLive = !F.LiveInit.empty();
    // Lanes that completed the group (or its first part) reduce, whether or
    // not they are still live at the reduction.
    bool UsesReached = F.GroupUnderIf || !F.PartEnds.empty();
    std::string Decls;
    if (UsesReached)
      Decls += " bool " + Reached + " = false;";
    std::optional<std::string> AddrOf = deferredAddresses(G, Key);
    Decls += " " + batchType(G, AddrOf.has_value(), Size) + " " + Batch + "; " +
             F.KeyType + " " + Key + " = 0;";
    if (F.Segment == 0) {
      std::string Head;
      if (HasLive)
        Head += " bool " + Live + " = " + F.LiveInit + ";";
      Head += Decls;
      for (const DeclStmt *DS : F.Hoisted) {
        for (const Decl *Dc : DS->decls()) {
          const auto *V = cast<VarDecl>(Dc);
          Head += " " +
                  V->getType().getUnqualifiedType().getAsString(
                      Ctx.getPrintingPolicy()) +
                  " " + V->getName().str() + ";";
        }
        // `const float G = e;` becomes `G = e;`.
        const auto *V0 = cast<VarDecl>(*DS->decl_begin());
        replaceKeepingLines(DS->getBeginLoc(), V0->getLocation(), "");
      }
      std::string AnyGuard = " if (::distwar::anyActive(" + Live + ")) {";
      if (F.AnyFromStart)
        Head += AnyGuard;
      else if (F.GuardFromStart)
        Head += " if (" + Live + ") {";
      add(F.Body->getLBracLoc().getLocWithOffset(1), 0, Head, RankBatch);

      if (!F.RemovedTerms.empty()) {
        std::string Cond;
        for (const Expr *T : F.KeptTerms)
          Cond += (Cond.empty() ? "" : " && ") + sourceText(T, Ctx);
        replaceKeepingLines(
            F.Cond->getBeginLoc(),
            Lexer::getLocForEndOfToken(F.Cond->getEndLoc(), 0, SM, LO), Cond);
      }
      for (const ContinueStmt *C : F.Continues)
        replaceTokens(C->getBeginLoc(), C->getBeginLoc(), Live + " = false");
      if (F.EarlyReturn)
        replaceKeepingLines(
            F.EarlyReturn->getBeginLoc(), Where.afterStatement(F.EarlyReturn),
            "bool distwar_returned = (" +
                sourceText(F.EarlyReturn->getCond(), Ctx) + ");");
      for (const Stmt *S : F.GuardAfter) {
        if (S == F.AnyAfter)
          add(Where.afterStatement(S), 0,
              (F.CloseBeforeAny ? " " + std::string(F.CloseBeforeAny, '}')
                                : std::string()) +
                  AnyGuard,
              RankBatch);
        else if (!llvm::is_contained(F.Unguarded, S))
          add(Where.afterStatement(S), 0, " if (" + Live + ") {", RankBatch);
      }
    } else {
      // Just after the previous group's reduction, at the body's top level.
      add(Where.afterStatement(F.PrevHolder), 0,
          Decls + (HasLive ? " if (" + Live + ") {" : ""), RankReduce);
    }
    unsigned Open = F.GuardsOpen;

    std::string Capture = " " + Key + " = " + First.KeyText + ";";
    if (F.GroupUnderIf)
      add(Where.afterStatement(G.Last), 0, Capture + " " + Reached + " = true;",
          RankReduce);
    // The first part captures the key; each part closes its guards and
    // reopens one for the next.
    for (const FlagPlan::PartEnd &E : F.PartEnds) {
      assert(HasLive && "parts joined across continues have a live flag");
      std::string Text = &E == &F.PartEnds.front()
                             ? Capture + " " + Reached + " = true;"
                             : std::string();
      if (E.GuardsOpen)
        Text += " " + std::string(E.GuardsOpen, '}');
      add(Where.afterStatement(E.Holder), 0, Text + " if (" + Live + ") {",
          RankReduce);
    }
    std::string Tail = UsesReached ? "" : Capture;
    Tail += " " + std::string(Open, '}');
    if (Open)
      Tail += " ";
    std::string Active = UsesReached ? Reached
                         : HasLive   ? Live
                                     : std::string("true");
    Tail +=
        std::string("::distwar::") +
        (D.Kind == GroupVariant::ButterflyUniform ? "reduceButterflyUniform("
                                                  : "reduceButterfly(") +
        Batch + ", " + Active + ", " + Key + ", DISTWAR_SITE_THRESHOLD(" +
        Table + ", " + std::to_string(TableIndex) + ")" +
        (AddrOf ? ", " + *AddrOf : "") + ");";
    bool LastSegment = F.Segment + 1 == F.Segments;
    if (F.GuardTrailing && LastSegment)
      Tail += " if (" + Live + ") {";
    add(Where.afterStatement(F.Holder), 0, Tail, RankReduce);
    if (F.GuardTrailing && LastSegment)
      add(F.Body->getRBracLoc(), 0, "} ", RankReduce);
  }

  /// Shared-array cursors for \p Loop (SharedCursors.h), after the groups'
  /// edits: an access whose tokens another edit touches keeps its subscript,
  /// and a cursor left with no access is not declared.
  void planCursors(const FunctionDecl *Function, const ForStmt *Loop) {
    std::optional<CursorPlan> Plan = planSharedCursors(Ctx, Function, Loop);
    if (!Plan)
      return;
    const LangOptions &LO = Ctx.getLangOpts();
    FileID File = SM.getFileID(Loop->getBeginLoc());
    struct Span {
      unsigned Offset, Length;
      std::string Text;
    };
    auto TokenSpan = [&](SourceLocation Begin, SourceLocation End,
                         std::string Text) {
      unsigned B = SM.getFileOffset(Begin);
      unsigned E =
          SM.getFileOffset(Lexer::getLocForEndOfToken(End, 0, SM, LO));
      return Span{B, E - B, std::move(Text)};
    };
    // Free: no planned edit starts inside [Offset, Offset + Length] or
    // covers any of it.
    auto Free = [&](const Span &S) {
      return llvm::none_of(Edits, [&](const Edit &E) {
        if (E.File != File)
          return false;
        unsigned EEnd = E.Offset + E.Length;
        bool StartsInside =
            E.Offset >= S.Offset && E.Offset <= S.Offset + S.Length;
        bool Covers = E.Length && E.Offset < S.Offset + S.Length &&
                      EEnd > S.Offset;
        return StartsInside || Covers;
      });
    };
    SourceLocation IncEnd = Lexer::getLocForEndOfToken(
        Loop->getInc()->getEndLoc(), 0, SM, LO);
    Span Before{SM.getFileOffset(Loop->getBeginLoc()), 0, ""};
    Span After{SM.getFileOffset(IncEnd), 0, ""};
    if (!editable(File) || !Free(Before) || !Free(After))
      return;
    std::vector<Span> Accesses;
    std::string Decls, Increments;
    for (const SharedCursor &C : Plan->Cursors) {
      unsigned &Count = Cursors[File];
      std::string Name = "distwar_cursor" + std::to_string(Count);
      std::vector<Span> Mine;
      for (const CursorUse &U : C.Uses) {
        Span Base = TokenSpan(U.Array->getLocation(), U.Array->getLocation(),
                              Name);
        // `j` -> `0`; `e + j` -> `e`; `j + e` -> `e`.
        Span Index =
            !U.Sum ? TokenSpan(U.Counter->getLocation(),
                               U.Counter->getLocation(), "0")
            : U.Sum->getRHS()->IgnoreImpCasts() == U.Counter
                ? TokenSpan(U.Sum->getOperatorLoc(), U.Counter->getLocation(),
                            "")
                : TokenSpan(U.Counter->getLocation(), U.Sum->getOperatorLoc(),
                            "");
        if (Free(Base) && Free(Index)) {
          Mine.push_back(std::move(Base));
          Mine.push_back(std::move(Index));
        }
      }
      if (Mine.empty())
        continue;
      ++Count;
      Decls += "auto *" + Name + " = " + C.Array->getName().str() + " + " +
               llvm::toString(Plan->Start, 10) + "; ";
      Increments += ", ++" + Name;
      llvm::append_range(Accesses, Mine);
    }
    if (Decls.empty())
      return;
    Edits.push_back({File, Before.Offset, 0, Decls, RankCursor});
    Edits.push_back({File, After.Offset, 0, Increments, RankCursor});
    for (Span &S : Accesses)
      Edits.push_back({File, S.Offset, S.Length, std::move(S.Text), RankCursor});
  }

  void planFloor(llvm::ArrayRef<size_t> Floored) {
    auto FloorCallee = [&](size_t I) {
      return "::distwar::floorAdd<" + Sites[I].TypeText + ">";
    };
    for (size_t I : Floored) {
      const Expr *Callee = Sites[I].Call->getCallee();
      if (!Sites[I].Invocation)
        replaceTokens(Callee->getBeginLoc(), Callee->getEndLoc(),
                      FloorCallee(I));
    }
    replaceInvocations(Floored, FloorCallee,
                       [](size_t) { return std::string(); });
  }

  bool floorEditable(const AtomicSite &S) const {
    const Expr *Callee = S.Call->getCallee();
    SourceLocation Where = SM.getExpansionLoc(S.Call->getBeginLoc());
    return S.IsDeviceAdd && S.Why != Reason::UsedResult &&
           editable(SM.getFileID(Where)) &&
           SM.getFileID(Where) ==
               SM.getFileID(SM.getExpansionLoc(S.Function->getLocation())) &&
           S.Why != Reason::HeaderNotEditable &&
           S.Why != Reason::HeaderEnteredTwice &&
           S.Why != Reason::AlreadyRewritten && !S.TypeText.empty() &&
           S.TypeText.find('<') == std::string::npos &&
           (S.Invocation || (Callee->getBeginLoc().isFileID() &&
                             Callee->getEndLoc().isFileID()));
  }

  /// The prologue of \p File. A header's table has its own guard: the
  /// prologue lies before the header's include guard, and a second inclusion
  /// must not define the table again.
  void prologue(FileID File, llvm::ArrayRef<std::string> SiteNames) {
    bool Main = File == SM.getMainFileID();
    std::string Table = tableOf(File);
    std::string Text = "#include <distwar/runtime.cuh> // distwar-rewrite: "
                       "batched gradient reductions\n";
    if (!SiteNames.empty()) {
      std::string Guard = "DISTWAR_DEFINED_" + Table;
      if (!Main)
        Text += "#ifndef " + Guard + "\n#define " + Guard + "\n";
      Text += "DISTWAR_SITES(" + Table;
      for (const std::string &Name : SiteNames)
        Text += ", \"" + escapeString(Name) + "\"";
      Text += ");\n";
      if (!Main)
        Text += "#endif\n";
    }
    std::string Path = Main ? FilePath : absoluteFilePath(SM, File);
    Text += "#line 1 \"" + escapeString(Path) + "\"\n";
    // A UTF-8 byte-order mark stays the file's first bytes.
    unsigned Start =
        SM.getBufferData(File).starts_with("\xEF\xBB\xBF") ? 3 : 0;
    add(SM.getLocForStartOfFile(File).getLocWithOffset(Start), 0, Text,
        RankPrologue);
  }

  /// The files that have edits, the main file first if it has any.
  std::vector<FileID> editedFiles() const {
    std::vector<FileID> Files;
    for (const Edit &E : Edits)
      if (!llvm::is_contained(Files, E.File))
        Files.push_back(E.File);
    llvm::stable_sort(Files, [&](FileID A, FileID B) {
      return A == SM.getMainFileID() && B != SM.getMainFileID();
    });
    return Files;
  }

  /// Merges insertions that share an offset into one replacement, so the
  /// set is a valid tooling::Replacements.
  bool landedOutside() const { return NotInFile; }

  llvm::Expected<tooling::Replacements> finish(FileID FID) {
    std::map<unsigned, std::vector<const Edit *>> ByOffset;
    // Insertions in front of a preprocessor directive go on lines of their
    // own before it, and a #line directive gives the directive its number
    // back.
    std::map<unsigned, std::string> LineRestored;
    for (const Edit &E : Edits) {
      if (E.File != FID)
        continue;
      unsigned Offset = E.Offset;
      if (std::optional<unsigned> LineStart = directiveLineStart(FID, Offset);
          LineStart && E.Length == 0) {
        LineRestored[*LineStart] = lineDirective(FID, Offset);
        Offset = *LineStart;
      }
      ByOffset[Offset].push_back(&E);
    }
    tooling::Replacements Result;
    llvm::StringRef File = SM.getFileEntryRefForID(FID)->getName();
    for (auto &[Offset, List] : ByOffset) {
      llvm::stable_sort(List, [](const Edit *A, const Edit *B) {
        return A->Order < B->Order;
      });
      std::string Text;
      unsigned Length = 0;
      for (const Edit *E : List) {
        Text += E->Text;
        Length = std::max(Length, E->Length);
      }
      if (auto It = LineRestored.find(Offset); It != LineRestored.end())
        Text += "\n" + It->second + "\n";
      if (llvm::Error Err =
              Result.add(tooling::Replacement(File, Offset, Length, Text)))
        return std::move(Err);
    }
    return Result;
  }

  std::vector<std::string> SizeTexts;

private:
  /// The start of the line of \p Offset when only blanks precede it there
  /// and a preprocessor directive starts at it, else nullopt.
  std::optional<unsigned> directiveLineStart(FileID FID, unsigned Offset) {
    llvm::StringRef Data = SM.getBufferData(FID);
    if (Offset >= Data.size() || Data[Offset] != '#')
      return std::nullopt;
    unsigned Start = Offset;
    while (Start > 0 && (Data[Start - 1] == ' ' || Data[Start - 1] == '\t'))
      --Start;
    if (Start > 0 && Data[Start - 1] != '\n')
      return std::nullopt;
    return Start;
  }

  /// `#line N "file"` naming the line of \p Offset as the user's file does.
  std::string lineDirective(FileID FID, unsigned Offset) {
    PresumedLoc P =
        SM.getPresumedLoc(SM.getLocForStartOfFile(FID).getLocWithOffset(Offset));
    assert(P.isValid() && "a location in an edited file has a line");
    // The name the prologue's #line gave the file, unless the user's own
    // #line directives renamed it.
    llvm::StringRef Parsed = SM.getFileEntryRefForID(FID)->getName();
    std::string Name = P.getFilename() != Parsed ? std::string(P.getFilename())
                       : FID == SM.getMainFileID() ? FilePath
                                                   : absoluteFilePath(SM, FID);
    return "#line " + std::to_string(P.getLine()) + " \"" +
           escapeString(Name) + "\"";
  }

  /// The current group's slots (plan() fills them) and its addrOf lambda.
  std::vector<DeferredSlot> Slots;
  std::optional<std::string> deferredAddresses(const SiteGroup &G,
                                               llvm::StringRef KeyVar) {
    return deferredAddressLambda(Ctx, Sites, G, Slots, KeyVar);
  }

  /// `::distwar::Fields<T, N, ...>` (values only, \p Deferred) or
  /// `::distwar::Batch<T, N, ...>`, with an `::distwar::AlwaysSet<B, E>` per
  /// run of slots whose sites run whenever the group's key is set (nothing
  /// but blocks and the channel loop between site and scope, and no goto that
  /// could jump past one): the runtime issues those with no presence or null
  /// test (GENERATED_CODE.md, section 2); and an `::distwar::LaneSet<B, E>`
  /// per run of slots under the group's lane-dependent ifs.
  std::string batchType(const SiteGroup &G, bool Deferred,
                        const std::string &Size) {
    // A template argument: sums of names and numbers as written, anything
    // else (a `>`, a `-`) in parentheses.
    auto Arg = [](const std::string &T) {
      bool Sum = llvm::all_of(T, [](char C) {
        return llvm::isAlnum(C) || C == '_' || C == ':' || C == ' ' || C == '+';
      });
      return Sum ? T : "(" + T + ")";
    };
    bool MayJump = containsGoto(G.Scope);
    std::string Type =
        std::string(Deferred ? "::distwar::Fields<" : "::distwar::Batch<") +
        Sites[G.Sites.front()].TypeText + ", " + Size;
    enum class Presence { Tracked, Always, Lane };
    assert(Slots.size() == G.Sites.size() && "one slot per site, in order");
    auto PresenceOf = [&](size_t K) {
      if (K == Slots.size())
        return Presence::Tracked;
      const AtomicSite &S = Sites[Slots[K].Site];
      if (underLaneIf(S, G) || (G.AfterContinue && K >= G.AfterContinue))
        return Presence::Lane;
      std::optional<std::string> Cond = siteCondition(Ctx, S, G);
      return !MayJump && Cond && Cond->empty() && !Where.inConditionalBlock(G, S)
                 ? Presence::Always
                 : Presence::Tracked;
    };
    // Runs of AlwaysSet and LaneSet slots, in slot order.
    std::optional<size_t> RunStart;
    Presence Run = Presence::Tracked;
    for (size_t K = 0; K <= Slots.size(); ++K) {
      Presence P = PresenceOf(K);
      if (RunStart && P != Run) {
        const std::string &End = K < Slots.size() ? Slots[K].Offset : Size;
        Type += std::string(Run == Presence::Always ? ", ::distwar::AlwaysSet<"
                                                    : ", ::distwar::LaneSet<") +
                Arg(Slots[*RunStart].Offset) + ", " + Arg(End) + ">";
        RunStart.reset();
      }
      if (P != Presence::Tracked && !RunStart) {
        RunStart = K;
        Run = P;
      }
    }
    return Type + ">";
  }

  void add(SourceLocation Loc, unsigned Length, std::string Text, Rank R) {
    // A place inside a macro body has no offset in the file: refuse to
    // write rather than write at a wrong one.
    if (Loc.isInvalid() || !Loc.isFileID() || !editable(SM.getFileID(Loc))) {
      NotInFile = true;
      return;
    }
    Edits.push_back(
        {SM.getFileID(Loc), SM.getFileOffset(Loc), Length, std::move(Text), R});
  }

  void replaceTokens(SourceLocation Begin, SourceLocation End,
                     std::string Text) {
    if (!editable(SM.getFileID(Begin))) {
      NotInFile = true;
      return;
    }
    unsigned Offset = SM.getFileOffset(Begin);
    unsigned EndOffset = SM.getFileOffset(
        Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts()));
    Edits.push_back({SM.getFileID(Begin), Offset, EndOffset - Offset,
                     std::move(Text), RankSlot});
  }

  /// Replaces [Begin, End) with \p Text plus as many newlines as it held.
  void replaceKeepingLines(SourceLocation Begin, SourceLocation End,
                           std::string Text) {
    if (!editable(SM.getFileID(Begin))) {
      NotInFile = true;
      return;
    }
    unsigned B = SM.getFileOffset(Begin), E = SM.getFileOffset(End);
    llvm::StringRef Old = SM.getBufferData(SM.getFileID(Begin)).slice(B, E);
    Text.append(Old.count('\n'), '\n');
    Edits.push_back({SM.getFileID(Begin), B, E - B, std::move(Text), RankSlot});
  }

  /// Each macro invocation holding one of \p Members, replaced whole.
  void replaceInvocations(llvm::ArrayRef<size_t> Members,
                          llvm::function_ref<std::string(size_t)> Callee,
                          llvm::function_ref<std::string(size_t)> Prefix) {
    std::map<const MacroInvocation *, std::vector<size_t>> ByInvocation;
    for (size_t I : Members)
      if (Sites[I].Invocation)
        ByInvocation[Sites[I].Invocation.get()].push_back(I);
    for (auto &[Inv, List] : ByInvocation) {
      if (!editable(SM.getFileID(Inv->FileRange.getBegin()))) {
        NotInFile = true;
        continue;
      }
      unsigned Begin = SM.getFileOffset(Inv->FileRange.getBegin());
      unsigned End = SM.getFileOffset(Inv->FileRange.getEnd());
      Edits.push_back(
          {SM.getFileID(Inv->FileRange.getBegin()), Begin, End - Begin,
           rewriteInvocation(*Inv, Sites, List, Callee, Prefix), RankSlot});
    }
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const std::vector<AtomicSite> &Sites;
  std::string FilePath;
  const EditableHeaders *Headers;
  std::string Table; ///< the current group's
  std::vector<Edit> Edits;
  bool NotInFile = false;
  llvm::DenseSet<const ForStmt *> Pragmas;
  /// Cursors declared so far in each file: a header's names must not depend
  /// on the file that includes it (its copy is shared by every input).
  std::map<FileID, unsigned> Cursors;
  /// The live flag of each loop body whose groups share one.
  std::map<const CompoundStmt *, std::string> LiveNames;
  EditPoints Where;
};

} // namespace

PlannedEdits planEdits(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                       std::vector<SiteGroup> &Groups, Variant V,
                       llvm::StringRef FilePath,
                       std::vector<VariantDecision> *Decisions,
                       const EditableHeaders *Headers) {
  PlannedEdits Out;
  Out.SlotTexts.resize(Sites.size());
  Out.SizeTexts.resize(Groups.size());
  Planner P(Ctx, Sites, FilePath, Headers);
  const SourceManager &SM = Ctx.getSourceManager();

  if (V == Variant::Floor) {
    std::vector<size_t> Floored;
    for (size_t I = 0; I < Sites.size(); ++I)
      if (P.floorEditable(Sites[I]))
        Floored.push_back(I);
    P.planFloor(Floored);
    for (FileID File : P.editedFiles())
      P.prologue(File, {});
  } else {
    std::vector<size_t> Accepted;
    for (size_t I = 0; I < Groups.size(); ++I)
      if (Groups[I].Why == Reason::None)
        Accepted.push_back(I);
    // Site names follow the batched calls in source order.
    llvm::stable_sort(Accepted, [&](size_t A, size_t B) {
      return SM.isBeforeInTranslationUnit(Groups[A].Last->getEndLoc(),
                                          Groups[B].Last->getEndLoc());
    });
    std::map<const FunctionDecl *, unsigned> PerFunction;
    // Each file has its own table (GENERATED_CODE.md, 2b).
    std::map<FileID, std::vector<std::string>> Names;
    for (size_t I : Accepted) {
      SiteGroup &G = Groups[I];
      unsigned K = PerFunction[G.Function]++;
      FileID File = P.fileOf(G);
      G.Name = P.namePrefix(File) + Sites[G.Sites.front()].FunctionName + "#" +
               std::to_string(K);
      std::vector<std::string> &FileNames = Names[File];
      P.plan(G, K, FileNames.size(), Out,
             Decisions ? &(*Decisions)[I] : nullptr);
      Out.SizeTexts[I] = P.SizeTexts.back();
      FileNames.push_back(G.Name);
    }
    // Shared-array cursors in each loop that holds a batched group.
    llvm::SetVector<std::pair<const FunctionDecl *, const ForStmt *>> Loops;
    for (size_t I : Accepted)
      if (const auto *Loop =
              dyn_cast<ForStmt>(iterationOf(Sites[Groups[I].Sites.front()])))
        Loops.insert({Groups[I].Function, Loop});
    for (auto [Function, Loop] : Loops)
      P.planCursors(Function, Loop);
    for (auto &[File, FileNames] : Names)
      P.prologue(File, FileNames);
  }
  if (P.landedOutside()) {
    Out.Error = "an edit would land inside a macro expansion or a file that "
                "may not be edited; nothing written";
    return Out;
  }
  for (FileID File : P.editedFiles()) {
    llvm::Expected<tooling::Replacements> R = P.finish(File);
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
