//===- AddressParts.cpp - An address split into pointer and index ---------===//

#include "Find/AddressParts.h"
#include "Analysis/Purity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distwar {

std::optional<std::pair<const Expr *, const Expr *>>
sumOperands(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add)
    return std::make_pair(BO->getLHS(), BO->getRHS());
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getOperator() != OO_Plus || Op->getNumArgs() != 2 ||
      !isBuiltinOperatorCall(Op))
    return std::nullopt;
  return std::make_pair(Op->getArg(0), Op->getArg(1));
}

void flattenSum(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Terms) {
  E = E->IgnoreParenImpCasts();
  if (auto Operands = sumOperands(E)) {
    flattenSum(Operands->first, Terms);
    flattenSum(Operands->second, Terms);
    return;
  }
  Terms.push_back(E);
}

const Expr *peelMembers(const Expr *E, std::string &Member) {
  while (true) {
    const auto *ME = dyn_cast<MemberExpr>(E);
    const auto *ArrowOfAddr =
        ME && ME->isArrow()
            ? dyn_cast<UnaryOperator>(ME->getBase()->IgnoreParenImpCasts())
            : nullptr;
    if (ArrowOfAddr && ArrowOfAddr->getOpcode() == UO_AddrOf) {
      Member = "." + ME->getMemberNameInfo().getAsString() + Member;
      E = ArrowOfAddr->getSubExpr()->IgnoreParens();
    } else if (ME && !ME->isArrow()) {
      Member = "." + ME->getMemberNameInfo().getAsString() + Member;
      E = ME->getBase()->IgnoreParenImpCasts();
    } else if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(E);
               DME && !DME->isArrow() && !DME->isImplicitAccess()) {
      Member = "." + DME->getMember().getAsString() + Member;
      E = DME->getBase()->IgnoreParenImpCasts();
    } else {
      return E;
    }
  }
}

bool isIntegralKey(const Expr *Key, const ASTContext &Ctx) {
  QualType T = Key->getType();
  if (T->isDependentType())
    return true;
  if (!T->isIntegralOrEnumerationType() || T->isBooleanType())
    return false;
  uint64_t Bits = Ctx.getTypeSize(T);
  return Bits == 32 || Bits == 64;
}

void splitPointerSum(const Expr *Addr, AddressParts &Parts) {
  llvm::SmallVector<const Expr *, 4> Terms;
  flattenSum(Addr, Terms);
  for (const Expr *T : Terms) {
    QualType Ty = T->getType();
    if (!Ty->isPointerType() && !Ty->isArrayType()) {
      Parts.IndexTerms.push_back(T);
    } else if (Parts.Base) {
      Parts.Base = nullptr;
      return;
    } else {
      Parts.Base = T;
    }
  }
}

} // namespace distwar
