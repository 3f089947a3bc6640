//===- AdjacentRuns.cpp - Slots at adjacent floats of one element ---------===//

#include "Emit/AdjacentRuns.h"
#include "Analysis/AstQueries.h"
#include "distwar/vector_plan.h"
#include "clang/AST/Expr.h"
#include <cassert>
#include <optional>

using namespace clang;

namespace distwar {

namespace {

/// Where a site adds: the element `B[I]` and the byte offset of the member
/// within it (`&B[I].m.x`, `&(&B[I].m)->x`, `&B[I]`).
struct ElementMember {
  const ArraySubscriptExpr *Element = nullptr;
  CharUnits Offset;
};

/// The operand of `&E`, or null.
const Expr *addressOperand(const Expr *E) {
  const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  return U->getSubExpr()->IgnoreParens();
}

std::optional<ElementMember> elementMember(ASTContext &Ctx,
                                           const Expr *Address) {
  const Expr *E = addressOperand(Address);
  CharUnits Offset = CharUnits::Zero();
  while (E) {
    // A template's dependent element or member has no layout yet.
    if (E->getType()->isDependentType() || E->getType()->isIncompleteType())
      return std::nullopt;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return ElementMember{AS, Offset};
    const auto *ME = dyn_cast<MemberExpr>(E);
    const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!FD || FD->isBitField() || FD->getParent()->isUnion() ||
        FD->getParent()->isDependentType() || FD->getParent()->isInvalidDecl())
      return std::nullopt;
    Offset += Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(FD));
    E = ME->isArrow() ? addressOperand(ME->getBase())
                      : ME->getBase()->IgnoreParens();
  }
  return std::nullopt;
}

} // namespace

std::vector<AdjacentRun> adjacentRuns(ASTContext &Ctx,
                                      const std::vector<AtomicSite> &Sites,
                                      const SiteGroup &G,
                                      llvm::ArrayRef<DeferredSlot> Slots) {
  assert(Slots.size() == G.Sites.size() && "one slot per site, in order");
  // A shared slot breaks the order of slots by site: no runs.
  if (llvm::any_of(Slots, [](const DeferredSlot &S) { return S.SharesEarlier; }))
    return {};
  constexpr int64_t kFloat = 4, kVector = 16;
  std::vector<AdjacentRun> Runs;
  if (Sites[G.Sites.front()].TypeText != "float")
    return Runs;
  // Each one-field slot's element and offset. One-field slots next to each
  // other are numbered one after the other (a channel loop's slots, which
  // have an extent, come between others).
  std::vector<std::optional<ElementMember>> At;
  for (const DeferredSlot &S : Slots)
    At.push_back(S.Extent.empty()
                     ? elementMember(Ctx, Sites[S.Site].Call->getArg(0))
                     : std::nullopt);
  auto Follows = [&](size_t K) {
    return At[K] && At[K - 1] &&
           sameExpression(At[K]->Element, At[K - 1]->Element, Ctx) &&
           (At[K]->Offset - At[K - 1]->Offset).getQuantity() == kFloat;
  };
  size_t Start = 0;
  for (size_t K = 1; K <= Slots.size(); ++K) {
    if (K < Slots.size() && Follows(K))
      continue;
    if (At[Start]) {
      const int64_t Size =
          Ctx.getTypeSizeInChars(At[Start]->Element->getType()).getQuantity();
      const int64_t Offset = At[Start]->Offset.getQuantity();
      const unsigned Phase = static_cast<unsigned>(Offset % kVector / kFloat);
      if (Size % kVector == 0 && Offset % kFloat == 0 &&
          detail::holdsVector(Phase, static_cast<int>(K - Start)))
        Runs.push_back({Start, K, Phase});
    }
    Start = K;
  }
  return Runs;
}

} // namespace distwar
