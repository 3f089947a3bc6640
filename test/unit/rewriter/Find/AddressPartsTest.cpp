//===- AddressPartsTest.cpp - the parts of an element's address -----------===//

#include "Find/AddressParts.h"
#include "Analysis/AstQueries.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const PartsCode = R"cu(
  struct Pose { float pos[3]; struct { float x, y; } uv; };
  __global__ void k(float *g, Pose *p, int i, float v) {
    atomicAdd(g + 3 * i + 1, v);
    atomicAdd(&p[i].uv.y, v);
  })cu";

TEST(AddressParts, APointerSumSplitsIntoBaseAndIndexTerms) {
  Parsed P = parse(PartsCode);
  ASSERT_EQ(P.Sites.size(), 2u);
  AddressParts Parts;
  splitPointerSum(P.Sites[0].Call->getArg(0), Parts);
  ASSERT_TRUE(Parts.Base);
  EXPECT_EQ(sourceText(Parts.Base, P.context()), "g");
  ASSERT_EQ(Parts.IndexTerms.size(), 2u);
  EXPECT_EQ(sourceText(Parts.IndexTerms[0], P.context()), "3 * i");
  EXPECT_EQ(sourceText(Parts.IndexTerms[1], P.context()), "1");
}

TEST(AddressParts, MembersArePeeledOffTheElement) {
  Parsed P = parse(PartsCode);
  // The element's lvalue, `p[i].uv.y`, under the address-of.
  const auto *AddrOf = llvm::dyn_cast<clang::UnaryOperator>(
      P.Sites[1].Call->getArg(0)->IgnoreParenImpCasts());
  ASSERT_TRUE(AddrOf);
  std::string Member;
  const clang::Expr *Element =
      peelMembers(AddrOf->getSubExpr()->IgnoreParens(), Member);
  ASSERT_TRUE(Element);
  EXPECT_EQ(Member, ".uv.y");
  EXPECT_EQ(sourceText(Element, P.context()), "p[i]");
}

TEST(AddressParts, SumOperandsOfTheBuiltInPlusOnly) {
  Parsed P = parse(PartsCode);
  auto Ops = sumOperands(P.Sites[0].Call->getArg(0));
  ASSERT_TRUE(Ops.has_value());
  EXPECT_EQ(sourceText(Ops->second, P.context()), "1");
  EXPECT_FALSE(sumOperands(P.Sites[1].Call->getArg(0)).has_value());
}

} // namespace
