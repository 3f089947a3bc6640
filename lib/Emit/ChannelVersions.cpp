//===- ChannelVersions.cpp - Loops of run-time trip count, versioned ------===//

#include "Emit/ChannelVersions.h"
#include "Analysis/AstQueries.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distwar {

namespace {

/// The loop's text as written, on lines numbered as the user's: the
/// fallback for other trip counts.
std::string loopText(const ForStmt *Loop, const EditPoints &Where,
                     ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // To the end of its last statement, `;` included.
  CharSourceRange Range = CharSourceRange::getCharRange(
      Where.statementBegin(Loop), Where.afterStatement(Loop));
  return "\n#line " +
         std::to_string(SM.getPresumedLineNumber(Loop->getBeginLoc())) + "\n" +
         Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

/// `[&](const T v) { return Body; }(0)`: \p Body read with loop variable
/// \p Var at 0, outside the loop.
std::string atFirstValue(const VarDecl *Var, const std::string &Body,
                         ASTContext &Ctx) {
  return "[&](const " +
         Var->getType().getUnqualifiedType().getAsString(
             Ctx.getPrintingPolicy()) +
         " " + Var->getName().str() + ") { return " + Body + "; }(0)";
}

/// `const bool distwar_apart = ...;`, testing \p V's reads against its adds
/// at the loop variable's first value, or "" when no read needs the test.
std::string apartTest(const VersionedLoop &V, const std::string &Count,
                      ASTContext &Ctx) {
  if (V.Reads.empty())
    return "";
  const VarDecl *Var = V.Loop->Var;
  std::string Hull = "::distwar::channelHull(" + Count;
  for (const std::string &Add : V.Adds)
    Hull += ", " + Add;
  Hull += ")";
  std::string Test = "::distwar::channelRangesApart(" + Count + ", " + Hull;
  for (const Expr *Read : V.Reads)
    Test += ", &(" + sourceText(Read, Ctx) + ")";
  return " const bool distwar_apart = " + atFirstValue(Var, Test + ")", Ctx) +
         ";";
}

} // namespace

std::string versionedAddressText(const AtomicSite &S, ASTContext &Ctx) {
  return S.KeyIsRunBase ? S.KeyText : sourceText(S.Call->getArg(0), Ctx);
}

std::string versionedKeyText(const AtomicSite &S, ASTContext &Ctx) {
  if (!S.KeyIsRunBase)
    return S.KeyText;
  assert(S.Channel && S.Channel->runTimeTrip() && "a run's loop is versioned");
  return atFirstValue(S.Channel->Var, S.KeyText, Ctx);
}

void planChannelVersion(EditList &Edits, const EditPoints &Where,
                        ASTContext &Ctx, const VersionedLoop &V) {
  const ChannelLoop &CL = *V.Loop;
  assert(CL.runTimeTrip() && "only a loop of run-time trip count is versioned");
  const std::string Count = "(" + CL.RunTimeUpperText + ")";
  Edits.add(Where.statementBegin(CL.Loop), 0,
            "{ auto distwar_channels = [&](auto distwar_count) { constexpr "
            "int " +
                CL.UpperText + " = decltype(distwar_count)::value; ",
            RankVersionOpen);
  Edits.replaceTokens(CL.Upper->getBeginLoc(), CL.Upper->getEndLoc(),
                      CL.UpperText);
  std::string Apart = apartTest(V, Count, Ctx);
  Edits.add(Where.afterStatement(CL.Loop), 0,
            " };" + Apart + " if (!::distwar::runChannelVersion(" +
                "distwar_channels, " + Count +
                (Apart.empty() ? "" : ", distwar_apart") + ")) " +
                loopText(CL.Loop, Where, Ctx) + " }",
            RankVersionClose);
}

} // namespace distwar
