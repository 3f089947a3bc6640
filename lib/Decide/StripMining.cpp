//===- StripMining.cpp - may a uniform-key loop reduce laps together? -----===//

#include "Decide/StripMining.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Collectives.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "Decide/BlockScope.h"
#include "Decide/LambdaWrap.h"
#include "Decide/VariantChoice.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <cassert>

using namespace clang;

namespace distwar {

namespace {

/// Whether every token of \p Loop's header and body braces is in one file,
/// spelled there (no macro writes any of it).
bool spelledInFile(const ForStmt *Loop, const SourceManager &SM) {
  const auto *Body = cast<CompoundStmt>(Loop->getBody());
  const Expr *Cond = Loop->getCond();
  const Expr *Inc = Loop->getInc();
  for (SourceLocation L :
       {Loop->getBeginLoc(), Cond->getBeginLoc(), Cond->getEndLoc(),
        Inc->getBeginLoc(), Inc->getEndLoc(), Body->getLBracLoc(),
        Body->getRBracLoc()})
    if (!L.isFileID())
      return false;
  return SM.getFileID(Body->getLBracLoc()) == SM.getFileID(Loop->getBeginLoc());
}

} // namespace

std::optional<StripLoop> stripLoopOf(ASTContext &Ctx,
                                     const std::vector<AtomicSite> &Sites,
                                     const SiteGroup &G,
                                     const VariantDecision &D) {
  const FlagPlan &F = D.Flags;
  if (D.Kind != GroupVariant::ButterflyUniform || !F.everyLaneRunsAll())
    return std::nullopt;
  // LaneSet slots: the issuing lane's presence bits would not speak for the
  // warp (distwar::Strip has none).
  if (G.AfterContinue ||
      llvm::any_of(G.Sites, [&](size_t I) { return underLaneIf(Sites[I], G); }))
    return std::nullopt;
  const auto *Loop = dyn_cast_or_null<ForStmt>(F.Loop);
  if (!Loop || !Loop->getCond() || Loop->getConditionVariable() ||
      !isa<CompoundStmt>(Loop->getBody()) || F.Body != Loop->getBody())
    return std::nullopt;
  std::optional<CountingLoop> Counting = matchCountingLoop(Loop);
  // The step becomes a whole strip's, so the counter's last value differs:
  // only a counter that no code after the loop sees.
  if (!Counting || !isa_and_nonnull<DeclStmt>(Loop->getInit()))
    return std::nullopt;
  const VarDecl *Counter = Counting->Var;
  QualType CounterType = Counter->getType();
  // Each lap's counter is the pass's first plus the lap: the loop's own
  // values only for an integer stepped by one.
  if (!CounterType->isIntegerType() || CounterType->isBooleanType() ||
      CounterType.isVolatileQualified() || CounterType->isReferenceType())
    return std::nullopt;
  const Stmt *Body = Loop->getBody();
  if (hasSideEffects(Loop->getCond()) || findWrite(Body, Counter, false) ||
      firstLoopExit(Body) || containsGoto(Body) || mayBeCollective(Body) ||
      mayBeCollective(Loop->getCond()))
    return std::nullopt;
  // The first lap's adds now wait for the rest of its iteration and the
  // whole next one, its condition included.
  if (!spelledInFile(Loop, Ctx.getSourceManager()) ||
      !runsInGenericLambda(Ctx, Loop) ||
      deferralReason(Sites, G, {Loop->getCond(), Body}) != Reason::None)
    return std::nullopt;
  assert(G.Function && "a batched group is in a function");
  return StripLoop{Loop, Counter, sourceText(Loop->getCond(), Ctx)};
}

} // namespace distwar
