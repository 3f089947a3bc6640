//===- RegionCheckerTest.cpp - what deferring atomics crosses -------------===//

#include "Decide/RegionChecker.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const RegionCode = R"cu(
    __device__ void writes(float *p) { p[0] = 1.f; }
    __device__ float scaled(float v) { return 2.f * v; }
    __global__ void k(float *g, float *out, const float *in, const int *ids,
                      float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      float a = scaled(v) * 2.f;
      int d = ids[i];
      out[i] = a;
      float b = in[i];
      float c = g[i];
      writes(out);
    again:
      atomicAdd(&g[i * 2 + 1], v + a + b + c + d);
    }
    __global__ void restricted(float *__restrict__ g, const float *in,
                               const int *ids, float v) {
      int i = ids[threadIdx.x];
      atomicAdd(&g[i * 2], v);
      float b = in[i];
      atomicAdd(&g[i * 2 + 1], b);
    })cu";

/// What deferring the atomics of \p Fn into its first site's buffer past
/// statement \p Index of its body meets.
Verdict regionVerdict(Parsed &P, llvm::StringRef Fn, size_t Index,
                      bool BeforeAnyAdd = false) {
  const clang::FunctionDecl *F = function(P.context(), Fn);
  const AtomicSite *First = nullptr;
  for (const AtomicSite &S : P.Sites)
    if (S.Function == F && !First)
      First = &S;
  std::vector<const clang::Stmt *> Body = bodyOf(P.context(), Fn);
  if (!First || Index >= Body.size()) {
    ADD_FAILURE() << "no site or no statement " << Index;
    return Reason::None;
  }
  RegionChecker Checker(P.Sites, {First->Buffer}, F);
  return Checker.check(Body[Index], BeforeAnyAdd);
}

TEST(RegionChecker, ArithmeticAndLoadsOfOtherTypesPass) {
  Parsed P = parse(RegionCode);
  EXPECT_EQ(regionVerdict(P, "k", 2), Reason::None); // a = scaled(v) * 2
  EXPECT_EQ(regionVerdict(P, "k", 3), Reason::None); // an int cannot alias
}

TEST(RegionChecker, StoresReadsAndCallsThatMayMeetTheBuffer) {
  Parsed P = parse(RegionCode);
  Verdict Store = regionVerdict(P, "k", 4);
  EXPECT_EQ(Store, Reason::StoreBetween);
  ASSERT_TRUE(Store.Place);
  EXPECT_EQ(Store.Place->Line, 10u);
  EXPECT_EQ(regionVerdict(P, "k", 5), Reason::ReadMayAlias);
  EXPECT_NE(regionVerdict(P, "k", 6), Reason::None); // g itself
  EXPECT_NE(regionVerdict(P, "k", 7), Reason::None); // writes(out)
}

TEST(RegionChecker, ReadsBeforeAnyAddMissNothing) {
  Parsed P = parse(RegionCode);
  EXPECT_EQ(regionVerdict(P, "k", 5, /*BeforeAnyAdd=*/true), Reason::None);
  // A store is wrong before the adds as well.
  EXPECT_EQ(regionVerdict(P, "k", 4, /*BeforeAnyAdd=*/true),
            Reason::StoreBetween);
}

TEST(RegionChecker, ALabelInTheRegionRefuses) {
  Parsed P = parse(RegionCode);
  EXPECT_EQ(regionVerdict(P, "k", 8), Reason::JumpIntoRegion);
}

TEST(RegionChecker, RestrictDestinationsAliasNoRead) {
  Parsed P = parse(RegionCode);
  EXPECT_EQ(regionVerdict(P, "restricted", 2), Reason::None);
}

TEST(RegionChecker, TheFirstProblemStays) {
  Parsed P = parse(RegionCode);
  const clang::FunctionDecl *F = function(P.context(), "k");
  std::vector<const clang::Stmt *> Body = bodyOf(P.context(), "k");
  RegionChecker Checker(P.Sites, {P.Sites[0].Buffer}, F);
  EXPECT_EQ(Checker.check(Body[4]), Reason::StoreBetween);
  // Later statements, fine or not, leave the first finding.
  EXPECT_EQ(Checker.check(Body[2]), Reason::StoreBetween);
}

} // namespace
