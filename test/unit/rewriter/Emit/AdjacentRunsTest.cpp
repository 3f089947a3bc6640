//===- AdjacentRunsTest.cpp - slots at adjacent floats of one element -----===//

#include "Emit/AdjacentRuns.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// One one-field slot per site of \p G, numbered in order.
std::vector<DeferredSlot> slotsInOrder(const SiteGroup &G) {
  std::vector<DeferredSlot> Slots;
  for (size_t I : G.Sites)
    Slots.push_back({I, std::to_string(Slots.size()), "", ""});
  return Slots;
}

/// The runs of the only group of \p Code, as (begin, end, phase) triples.
std::vector<std::array<size_t, 3>> runsOf(llvm::StringRef Code) {
  Parsed P = parse(Code);
  if (P.Groups.size() != 1) {
    ADD_FAILURE() << "expected one group, got " << P.Groups.size();
    return {};
  }
  std::vector<std::array<size_t, 3>> Out;
  for (const AdjacentRun &R : adjacentRuns(P.context(), P.Sites, P.Groups[0],
                                           slotsInOrder(P.Groups[0])))
    Out.push_back({R.Begin, R.End, R.Phase});
  return Out;
}

using Runs = std::vector<std::array<size_t, 3>>;

/// A kernel that adds `v` to fields \p Fields, in this order, of one element
/// per lane of an array of \p Element (declared by \p Decl, if any).
std::string addsTo(llvm::StringRef Decl, llvm::StringRef Element,
                   llvm::StringRef Value,
                   std::initializer_list<const char *> Fields) {
  std::string Code = Decl.str() + "\n__global__ void k(" + Element.str() +
                     " *g, const int *ids, " + Value.str() +
                     " v) {\n  int i = ids[threadIdx.x];\n";
  for (const char *F : Fields)
    Code += std::string("  atomicAdd(&g[i].") + F + ", v);\n";
  return Code + "}\n";
}

constexpr const char *Grad4 = "struct Grad4 { float a, b, c, d; };";
constexpr const char *Grad8 =
    "struct Grad8 { float f0, f1, f2, f3, f4, f5, f6, f7; };";

TEST(AdjacentRuns, FourFloatsOfASixteenByteElementAreOneVector) {
  EXPECT_EQ(runsOf(addsTo(Grad4, "Grad4", "float", {"a", "b", "c", "d"})),
            (Runs{{0, 4, 0}}));
}

TEST(AdjacentRuns, ARunPastTheBoundaryKeepsItsPhase) {
  EXPECT_EQ(runsOf(addsTo(Grad8, "Grad8", "float",
                          {"f1", "f2", "f3", "f4", "f5", "f6", "f7"})),
            (Runs{{0, 7, 1}}));
}

TEST(AdjacentRuns, NoWholeBlockNoRun) {
  // Floats 1 to 4 straddle two 16-byte blocks without filling either.
  EXPECT_EQ(runsOf(addsTo(Grad8, "Grad8", "float", {"f1", "f2", "f3", "f4"})),
            Runs{});
}

TEST(AdjacentRuns, ElementSizeAndTypeMustAllowVectors) {
  // Twelve bytes: the element's alignment says nothing of the run's.
  EXPECT_EQ(runsOf(addsTo("", "float3", "float", {"x", "y", "z"})), Runs{});
  EXPECT_EQ(runsOf(addsTo("struct Dbl4 { double a, b, c, d; };", "Dbl4",
                          "double", {"a", "b", "c", "d"})),
            Runs{});
}

TEST(AdjacentRuns, NotAdjacentInMemoryNotARun) {
  EXPECT_EQ(runsOf(addsTo(Grad4, "Grad4", "float", {"a", "c", "b", "d"})),
            Runs{});
}

} // namespace
