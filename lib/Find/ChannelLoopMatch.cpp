//===- ChannelLoopMatch.cpp - Loops whose iterations fill fields ----------===//

#include "Find/ChannelLoopMatch.h"
#include "Analysis/AstQueries.h"
#include "Analysis/LoopExits.h"
#include "Analysis/RunTimeTrip.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

std::optional<ChannelLoop> matchChannelLoop(const ForStmt *F,
                                            const Stmt *Parent, ASTContext &Ctx,
                                            bool AllowRunTimeTrip) {
  std::optional<CountingLoop> Counting = matchCountingLoop(F);
  if (!Counting)
    return std::nullopt;
  ChannelLoop CL;
  CL.Loop = F;
  CL.Var = Counting->Var;
  CL.Lower = Counting->Start;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Cond || Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), CL.Var))
    return std::nullopt;
  CL.Upper = Cond->getRHS();
  const bool RunTime = !isCompileTimeConstant(CL.Upper, Ctx);
  if (RunTime && !(AllowRunTimeTrip && isVersionableLoop(F, Parent, Ctx)))
    return std::nullopt;
  if (!isCompileTimeConstant(CL.Lower, Ctx) || firstLoopExit(F->getBody()) ||
      findWrite(F->getBody(), CL.Var, false))
    return std::nullopt;
  CL.LowerText = sourceText(CL.Lower, Ctx);
  CL.UpperText = sourceText(CL.Upper, Ctx);
  if (CL.LowerText.empty() || CL.UpperText.empty())
    return std::nullopt;
  if (RunTime) {
    CL.RunTimeUpperText = CL.UpperText;
    CL.UpperText = kVersionTripName;
  }
  const auto *Zero = dyn_cast<IntegerLiteral>(CL.Lower->IgnoreParenImpCasts());
  CL.LowerIsZero = Zero && Zero->getValue() == 0;
  if (const auto *AS = dyn_cast_or_null<AttributedStmt>(Parent))
    CL.HasUnrollPragma = llvm::any_of(
        AS->getAttrs(), [](const Attr *A) { return isa<LoopHintAttr>(A); });
  return CL;
}

} // namespace distwar
