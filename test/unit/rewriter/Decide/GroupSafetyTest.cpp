//===- GroupSafetyTest.cpp - what may lie between a group's atomics -------===//

#include "Decide/GroupSafety.h"
#include "TestAST.h"
#include "gtest/gtest.h"

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

} // namespace
