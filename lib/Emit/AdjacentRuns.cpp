//===- AdjacentRuns.cpp - Slots at adjacent floats of one element ---------===//

#include "Emit/AdjacentRuns.h"
#include "distwar/vector_plan.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/StringExtras.h"
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

/// Whether two subscripts name the same element as written (same buffer
/// and index expressions, declarations included).
bool sameElement(ASTContext &Ctx, const ArraySubscriptExpr *A,
                 const ArraySubscriptExpr *B) {
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// A slot number as the batch spells it: a constant `k`, or `P + k` after
/// the slots of a template parameter's channel loop (`C + 3`).
struct SlotNumber {
  std::string Prefix;
  unsigned K = 0;
  std::string text(unsigned Plus) const {
    return Prefix.empty() ? std::to_string(K + Plus)
                          : Prefix + " + " + std::to_string(K + Plus);
  }
};

/// The number of a one-field slot (a channel loop's site has an extent and
/// is no field of a run).
std::optional<SlotNumber> slotNumber(const DeferredSlot &S) {
  if (!S.Extent.empty())
    return std::nullopt;
  llvm::StringRef Text(S.Offset);
  SlotNumber N;
  auto [Head, Tail] = Text.rsplit(" + ");
  if (!Tail.empty()) {
    if (!llvm::all_of(Head,
                      [](char C) { return llvm::isAlnum(C) || C == '_'; }))
      return std::nullopt;
    N.Prefix = Head.str();
    Text = Tail;
  }
  if (Text.getAsInteger(10, N.K))
    return std::nullopt;
  return N;
}

} // namespace

std::vector<AdjacentRun> adjacentRuns(ASTContext &Ctx,
                                      const std::vector<AtomicSite> &Sites,
                                      const SiteGroup &G,
                                      llvm::ArrayRef<DeferredSlot> Slots) {
  assert(Slots.size() == G.Sites.size() && "one slot per site, in order");
  constexpr int64_t kFloat = 4, kVector = 16;
  std::vector<AdjacentRun> Runs;
  if (Sites[G.Sites.front()].TypeText != "float")
    return Runs;
  // Slot k's element and offset, where its slot number is a constant.
  std::vector<std::optional<ElementMember>> At;
  std::vector<std::optional<SlotNumber>> Number;
  for (const DeferredSlot &S : Slots) {
    At.push_back(elementMember(Ctx, Sites[S.Site].Call->getArg(0)));
    Number.push_back(slotNumber(S));
  }
  auto Follows = [&](size_t K) {
    return Number[K] && Number[K - 1] &&
           Number[K]->Prefix == Number[K - 1]->Prefix &&
           Number[K]->K == Number[K - 1]->K + 1 && At[K] && At[K - 1] &&
           sameElement(Ctx, At[K]->Element, At[K - 1]->Element) &&
           (At[K]->Offset - At[K - 1]->Offset).getQuantity() == kFloat;
  };
  size_t Start = 0;
  for (size_t K = 1; K <= Slots.size(); ++K) {
    if (K < Slots.size() && Follows(K))
      continue;
    if (K - Start >= 2 && At[Start]) {
      const int64_t Size =
          Ctx.getTypeSizeInChars(At[Start]->Element->getType()).getQuantity();
      const int64_t Offset = At[Start]->Offset.getQuantity();
      const unsigned Phase = static_cast<unsigned>(Offset % kVector / kFloat);
      if (Size % kVector == 0 && Offset % kFloat == 0 &&
          detail::holdsVector(Phase, static_cast<int>(K - Start)))
        Runs.push_back({Number[Start]->text(0), Number[K - 1]->text(1), Phase});
    }
    Start = K;
  }
  return Runs;
}

} // namespace distwar
