//===- ButterflyEdits.cpp - the text of a butterfly group -----------------===//
//
// A butterfly's batch, key and live flag at the loop body's start, the
// guards around what lanes skipped, the key captured where the group
// completes and the reduction at the body's top level, outside every guard
// (GENERATED_CODE.md, section 6); the versions of a two-form butterfly's
// loop; a strip's lap loop (section 12).
//
//===----------------------------------------------------------------------===//

#include "Analysis/AstQueries.h"
#include "Emit/GroupEdits.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <cassert>

using namespace clang;

namespace distwar {

/// The butterfly: batch, key and flags declared at the loop body's start,
/// guards around what lanes skipped, the reduction at the body's top level
/// (GENERATED_CODE.md, section 6). Every edit keeps its newlines.
void GroupEdits::writeButterfly(const GroupPlan &P) {
  const SiteGroup &G = *P.Group;
  const FlagPlan &F = P.Flags;
  std::string Suffix = std::to_string(P.Number);
  ButterflyNames N{"distwar_batch" + Suffix, "distwar_reached" + Suffix,
                   "distwar_key" + Suffix, "distwar_active" + Suffix};
  // The live flag is the first group's of the body; later groups of the
  // iteration share it (the flag only falls, so at each reduction it is
  // that group's activity).
  if (F.Segment == 0)
    LiveNames[F.Body] = N.Live;
  else
    N.Live = LiveNames[F.Body];
  bool UsesReached = F.usesReached();
  std::string Decls;
  if (UsesReached)
    Decls += " bool " + N.Reached + " = false;";
  // A strip's reduction takes no key.
  if (P.Strip)
    N.Key.clear();
  std::string BatchType = batchTypeOf(P, P.AddrOf.has_value());
  Decls += " " + BatchType + " " + N.Batch + ";";
  if (!N.Key.empty())
    Decls += " " + F.KeyType + " " + N.Key + F.KeyInit + ";";
  if (F.Segment == 0)
    writeBodyHead(F, N.Live, Decls);
  else
    // Just after the previous group's reduction, at the body's top level.
    Edits.add(Where.afterStatement(F.PrevHolder), 0,
              Decls + (F.LiveInit.empty() ? "" : " if (" + N.Live + ") {"),
              RankReduce);
  writeKeyCapture(P, N);
  std::string Active = UsesReached      ? N.Reached
                       : F.alwaysActive() ? std::string("true")
                                          : N.Live;
  std::string Reduce = P.Kind == Strategy::ButterflyUniform
                           ? "reduceButterflyUniform"
                           : "reduceButterfly";
  // A two-form reduction takes its loop version's form first.
  std::string Form = P.SerialForm ? writeFormVersions(P) + ", " : "";
  if (P.SerialForm)
    Reduce += "OrSerial";
  std::string Call = P.Strip ? writeStrip(P, BatchType)
                             : "::distwar::" + Reduce + "(" + Form + N.Batch +
                                   ", " + Active + ", " + N.Key + ", " +
                                   threshold(P.TableIndex) +
                                   (P.AddrOf ? ", " + *P.AddrOf : "") + ");";
  writeReduction(P, N, UsesReached, Call);
}

/// A strip (GENERATED_CODE.md, section 12): the loop steps over kStripLaps
/// iterations at a time, and its body runs as the laps of a lap loop, each
/// with the counter redeclared as the lap's iteration; a lap whose
/// iteration fails the condition ends the lap loop and then the loop
/// itself, so that the condition is never tested past the first failure.
/// Each lap keeps its batch; the laps are reduced together after the lap
/// loop, as the warp's version of the loop says (runStrips, around it).
/// Returns what replaces the group's reduction: the lap's keep.
std::string GroupEdits::writeStrip(const GroupPlan &P,
                                   const std::string &BatchType) {
  const StripLoop &S = *P.Strip;
  const FlagPlan &F = P.Flags;
  std::string Suffix = std::to_string(P.Number);
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
            RankLoopVersionsOpen);
  Edits.add(Where.afterStatement(S.Loop), 0,
            " }; ::distwar::runStrips(" + threshold(P.TableIndex) + ", " +
                Versions + "); }",
            RankLoopVersionsClose);
  return Strip + ".keep(" + Lap + ", distwar_batch" + Suffix + ");";
}

/// A two-form butterfly's loop as the two versions of runForms (section 6):
/// the loop becomes the body of a generic lambda whose parameter is the
/// form, called by runForms with the site value of the loop's first such
/// group (a launch's tuner gives its sites one value). Returns the form
/// parameter's name, which the loop's reductions take first.
std::string GroupEdits::writeFormVersions(const GroupPlan &P) {
  const Stmt *Loop = P.Flags.Loop;
  assert(Loop && "a two-form butterfly is in a loop");
  auto [It, New] = FormNames.try_emplace(Loop);
  if (!New)
    return It->second;
  std::string Suffix = std::to_string(P.Number);
  It->second = "distwar_serial" + Suffix;
  std::string Versions = "distwar_forms" + Suffix;
  Edits.add(Loop->getBeginLoc(), 0,
            "{ auto " + Versions + " = [&](auto " + It->second + ") { ",
            RankFormVersionsOpen);
  Edits.add(Where.afterStatement(Loop), 0,
            " }; ::distwar::runForms(" + threshold(P.TableIndex) + ", " +
                Versions + "); }",
            RankFormVersionsClose);
  return It->second;
}

/// The first group of a loop body: the live flag, the group's
/// declarations and the hoisted variables at the body's start, the guards
/// that open there, and what becomes the live flag (a `continue`, an early
/// return, the lane-dependent terms of the loop's condition).
void GroupEdits::writeBodyHead(const FlagPlan &F, const std::string &Live,
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
    Edits.replaceKeepingLines(F.Cond->getBeginLoc(),
                              Lexer::getLocForEndOfToken(F.Cond->getEndLoc(), 0,
                                                         SM, Ctx.getLangOpts()),
                              Cond);
  }
  for (const ContinueStmt *C : F.Continues)
    Edits.replaceTokens(C->getBeginLoc(), C->getBeginLoc(), Live + " = false");
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
      Edits.add(Where.afterStatement(S), 0, " if (" + Live + ") {", RankBatch);
  }
}

/// The variables declared before the group and used after its guards,
/// declared at the body's start: `const float G = e;` becomes `G = e;`.
std::string GroupEdits::hoistedDeclarations(const FlagPlan &F) {
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
    CharSourceRange Range =
        CharSourceRange::getTokenRange(DS->getBeginLoc(), DS->getEndLoc());
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
void GroupEdits::writeKeyCapture(const GroupPlan &P, const ButterflyNames &N) {
  const SiteGroup &G = *P.Group;
  const FlagPlan &F = P.Flags;
  std::string Capture = keyCapture(P, N);
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
std::string GroupEdits::keyCapture(const GroupPlan &P,
                                   const ButterflyNames &N) const {
  if (N.Key.empty()) // a strip's reduction takes no key
    return "";
  return " " + N.Key + " = " + Sites[P.Group->Sites.front()].KeyText + ";";
}

/// After the holder: the key captured (unless a Reached flag did), the
/// open guards closed, \p Call, and the guard of the body's trailing
/// statements after the last group.
void GroupEdits::writeReduction(const GroupPlan &P, const ButterflyNames &N,
                                bool UsesReached, const std::string &Call) {
  const SiteGroup &G = *P.Group;
  const FlagPlan &F = P.Flags;
  std::string Tail = UsesReached ? "" : keyCapture(P, N);
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

} // namespace distwar
