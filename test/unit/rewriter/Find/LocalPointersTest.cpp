//===- LocalPointersTest.cpp - an address kept in a local pointer ---------===//
//
// A local pointer that is a uniform buffer plus an index, never changed, is
// read as the sum written out; one that moves, whose index changes or whose
// index's name is declared again, is not.
//
//===----------------------------------------------------------------------===//

#include "Find/LocalPointers.h"
#include "Analysis/AstQueries.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const PointerCode = R"cu(
  __global__ void k(float *g, const int *ids, int n) {
    const int i = ids[threadIdx.x];
    float *sum = g + i * 3;
    float *elem = &g[i + 1];
    float *moved = g + i;
    moved += n;
    int j = ids[0];
    float *rekeyed = g + j;
    j = 2;
    float *local[2];
    float *fromLocal = local[0] + i;
    const int s = i;
    float *shadowed = g + s;
    { const int s = 4; g[s] = 0.f; }
    atomicAdd(sum + 1, 1.f);
    atomicAdd(elem, 1.f);
    atomicAdd(moved, 1.f);
    atomicAdd(rekeyed, 1.f);
    atomicAdd(fromLocal, 1.f);
    atomicAdd(shadowed, 1.f);
  })cu";

/// The parts of \p Site's address as decompose() first splits them: the
/// pointer, and the constant after it.
AddressParts partsOf(const AtomicSite &Site) {
  AddressParts Parts;
  const clang::Expr *Addr = Site.Call->getArg(0)->IgnoreParenImpCasts();
  if (sumOperands(Addr))
    splitPointerSum(Addr, Parts);
  else
    Parts.Base = Addr;
  return Parts;
}

std::vector<std::string> termTexts(const AddressParts &Parts,
                                   clang::ASTContext &Ctx) {
  std::vector<std::string> Out;
  for (const clang::Expr *T : Parts.IndexTerms)
    Out.push_back(sourceText(T, Ctx));
  return Out;
}

TEST(LocalPointers, AStableSumIsReadThrough) {
  Parsed P = parse(PointerCode);
  clang::ASTContext &Ctx = P.context();
  ASSERT_EQ(P.Sites.size(), 6u);
  UniformBuffers Buffers(Ctx);
  AddressParts Sum = partsOf(P.Sites[0]);
  ASSERT_TRUE(forwardLocalPointer(Sum, P.Sites[0].Function, Buffers));
  EXPECT_EQ(sourceText(Sum.Base, Ctx), "g");
  EXPECT_EQ(termTexts(Sum, Ctx), (std::vector<std::string>{"i * 3", "1"}));
  AddressParts Elem = partsOf(P.Sites[1]);
  ASSERT_TRUE(forwardLocalPointer(Elem, P.Sites[1].Function, Buffers));
  EXPECT_EQ(termTexts(Elem, Ctx), (std::vector<std::string>{"i", "1"}));
}

TEST(LocalPointers, WhatMayChangeIsNot) {
  Parsed P = parse(PointerCode);
  ASSERT_EQ(P.Sites.size(), 6u);
  UniformBuffers Buffers(P.context());
  for (size_t I : {2u, 3u, 4u, 5u}) {
    AddressParts Parts = partsOf(P.Sites[I]);
    EXPECT_FALSE(forwardLocalPointer(Parts, P.Sites[I].Function, Buffers))
        << "site " << I;
  }
}

} // namespace
