//===- GroupSafetyTest.cpp - what may lie between a group's atomics -------===//

#include "Decide/GroupSafety.h"
#include "TestAST.h"
#include "gtest/gtest.h"
#include <iterator>

using namespace distwar;
using namespace distwar::test;

namespace {

TEST(GroupSafety, RegionSafety) {
  Parsed P = parse(R"cu(
    __device__ float twice(float x) { return 2 * x; }
    __global__ void k(float *a, float *b, float *out, int id, int jd,
                      float v) {
      atomicAdd(&a[id], v);
      float w = twice(v) + sqrtf(v);  // pure calls: fine
      atomicAdd(&b[id], w);
      atomicAdd(&a[jd], v);
      out[0] = w;                     // may alias a or b
      atomicAdd(&b[jd], w);
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  EXPECT_EQ(P.Groups[0].Why, Reason::None);
  EXPECT_EQ(P.Groups[1].Why, Reason::StoreBetween);
}

/// Where \p Why's place lies, as an offset into the main file.
unsigned causeOffset(const Parsed &P, const Verdict &Why) {
  const clang::SourceManager &SM = P.context().getSourceManager();
  return offsetOf(P.context(),
                  SM.translateLineCol(SM.getMainFileID(), Why.Place->Line,
                                      Why.Place->Column));
}

TEST(GroupSafety, ReasonsPointAtTheirCause) {
  AnnotatedCode Code(R"cu(
    __device__ void log_value(float *out, float v) { out[0] = v; }
    __global__ void k(float *a, float *b, float *out, int n, float v) {
      for (int i = 0; i < n; ++i) {
        atomicAdd(&a[i], v);
        $call^log_value(out, v);
        atomicAdd(&b[i], v);
      }
      for (int i = 0; i < n; ++i) {
        atomicAdd(&a[i], v);
        $store^out[i] = v;
        atomicAdd(&b[i], v);
      }
      for (int i = 0; i < n; ++i) {
        atomicAdd(&a[i], v);
        if (v > 1.f)
          $exit^break;
        atomicAdd(&b[i], v);
      }
      for (int i = 0; i < n; ++i) {
        int j = i;
        atomicAdd(&a[j], v);
        $key^j += 1;
        atomicAdd(&b[j], v);
      }
      for (int i = 0; i < n; ++i) {
        atomicAdd(&a[i], v);
        float seen = $buffer^b[i + 1];
        atomicAdd(&b[i], seen);
      }
    })cu");
  Parsed P = parse(Code.code());
  struct Cause {
    Reason Why;
    llvm::StringRef Point, Text;
  };
  const Cause Causes[] = {
      {Reason::CallBetween, "call", "this call may write memory"},
      {Reason::StoreBetween, "store",
       "this store may write a destination buffer"},
      {Reason::LeavesIteration, "exit", "this 'break' leaves the iteration"},
      {Reason::KeyModified, "key", "the key's variable 'j' is written here"},
      {Reason::BufferAccessedBetween, "buffer",
       "destination buffer 'b' is used here"},
  };
  ASSERT_EQ(P.Groups.size(), std::size(Causes));
  for (size_t I = 0; I < P.Groups.size(); ++I) {
    const Verdict &Why = P.Groups[I].Why;
    EXPECT_EQ(Why, Causes[I].Why) << I;
    ASSERT_TRUE(Why.Place) << I;
    EXPECT_EQ(causeOffset(P, Why), Code.point(Causes[I].Point)) << I;
    EXPECT_EQ(Why.Place->Text, Causes[I].Text) << I;
    EXPECT_EQ(Why.Place->File, "") << I;
  }
}

TEST(GroupSafety, AReasonWithoutAStatementHasNoPlace) {
  Parsed P = parse(R"cu(
    __global__ void k(float *a, float *b, int id, float v) {
      atomicAdd(&a[id], v);
      atomicAdd(&b[id], v);
    })cu");
  ASSERT_EQ(P.Groups.size(), 1u);
  EXPECT_EQ(P.Groups[0].Why, Reason::None);
  EXPECT_FALSE(P.Groups[0].Why.Place);
  P.Groups[0].Why = Verdict(Reason::CallBetween, ReasonPlace{"", 3, 7, "x"});
  P.Groups[0].Why = Reason::KeyModified; // a new reason: the place goes
  EXPECT_FALSE(P.Groups[0].Why.Place);
}

} // namespace
