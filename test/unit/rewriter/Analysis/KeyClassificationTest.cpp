//===- KeyClassificationTest.cpp - how a key varies across lanes ----------===//

#include "Analysis/Uniformity.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// How the initialiser of \p Name in kernel k varies, as a key.
KeyUniformity keyKindOfInit(Parsed &P, llvm::StringRef Name) {
  const clang::VarDecl *V = variable(P.context(), Name);
  if (!V || !V->getInit())
    return KeyUniformity::Varying;
  UniformityAnalysis U(P.context(), function(P.context(), "k"));
  return U.classifyKey(V->getInit());
}

const char *const KeyKindsCode = R"cu(
    __global__ void k(float *g, const int *ids, int n) {
      int global_id = threadIdx.x + blockIdx.x * blockDim.x;
      int scaled = threadIdx.x * 3;
      int zeroed = threadIdx.x * 0;
      int shifted = threadIdx.x - n;
      int reversed = n - threadIdx.x;
      int row = threadIdx.y;
      int copy = global_id;
      int changed = threadIdx.x;
      changed += 1;
      int copy_of_changed = changed;
      int block = blockIdx.x;
      int loaded = ids[blockIdx.x];
      int per_lane_load = ids[threadIdx.x];
      g[0] = global_id + scaled + zeroed + shifted + reversed + row + copy +
             copy_of_changed + block + loaded + per_lane_load;
    })cu";

TEST(KeyClassification, ThreadIndexDerivedKeysAreDistinct) {
  Parsed P = parse(KeyKindsCode);
  EXPECT_EQ(keyKindOfInit(P, "global_id"), KeyUniformity::Distinct);
  EXPECT_EQ(keyKindOfInit(P, "scaled"), KeyUniformity::Distinct);
  EXPECT_EQ(keyKindOfInit(P, "shifted"), KeyUniformity::Distinct);
  // Through a local that is never written again.
  EXPECT_EQ(keyKindOfInit(P, "copy"), KeyUniformity::Distinct);
}

TEST(KeyClassification, NotInjectiveOrNotTheLaneIsVarying) {
  Parsed P = parse(KeyKindsCode);
  // Multiplying by zero gives every lane one key.
  EXPECT_NE(keyKindOfInit(P, "zeroed"), KeyUniformity::Distinct);
  // `n - tid` is injective too, but only a uniform subtrahend is proven.
  EXPECT_EQ(keyKindOfInit(P, "reversed"), KeyUniformity::Varying);
  // threadIdx.y repeats across the lanes of a warp.
  EXPECT_EQ(keyKindOfInit(P, "row"), KeyUniformity::Varying);
  // A local written after its initialisation is not its initialiser.
  EXPECT_EQ(keyKindOfInit(P, "copy_of_changed"), KeyUniformity::Varying);
}

TEST(KeyClassification, UniformAndLikelyUniformKeys) {
  Parsed P = parse(KeyKindsCode);
  EXPECT_EQ(keyKindOfInit(P, "block"), KeyUniformity::Uniform);
  // A load at a uniform address: uniform if memory holds one value.
  EXPECT_EQ(keyKindOfInit(P, "loaded"), KeyUniformity::LikelyUniform);
  EXPECT_EQ(keyKindOfInit(P, "per_lane_load"), KeyUniformity::Varying);
}

} // namespace
