//===- BlockUniformityTest.cpp - values equal in every thread of a block --===//
//
// UniformityAnalysis::isBlockUniform, which --balance=tiles asks of the
// branches before a lane's return.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Uniformity.h"
#include "TestAST.h"
#include "clang/AST/Stmt.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;
using namespace clang;

namespace {

/// Whether the condition of the first if of kernel k is block-uniform.
bool firstConditionUniform(llvm::StringRef Body) {
  std::string Code = "__device__ float load(const float *p) { return *p; }\n"
                     "__global__ void k(const float *g, int n, int m) {\n" +
                     Body.str() + "\n}";
  Parsed P = parse(Code);
  const FunctionDecl *K = function(P.context(), "k");
  for (const Stmt *S : bodyOf(P.context(), "k"))
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      UniformityAnalysis U(P.context(), K);
      return U.isBlockUniform(If->getCond());
    }
  ADD_FAILURE() << "no if";
  return false;
}

TEST(BlockUniformity, TheBlockIndexParametersAndConstantsAreUniform) {
  EXPECT_TRUE(firstConditionUniform("if (blockIdx.x >= n) return;"));
  EXPECT_TRUE(
      firstConditionUniform("if (blockIdx.y * gridDim.x + 3 < n * m) return;"));
  EXPECT_TRUE(firstConditionUniform(
      "const int tile = blockIdx.x * blockDim.x; if (tile > n) return;"));
}

TEST(BlockUniformity, ThreadIndicesLoadsAndChangedValuesAreNot) {
  EXPECT_FALSE(firstConditionUniform("if (threadIdx.x >= n) return;"));
  EXPECT_FALSE(firstConditionUniform("if (g[blockIdx.x] > 0) return;"));
  EXPECT_FALSE(firstConditionUniform("if (load(g) > 0) return;"));
  EXPECT_FALSE(firstConditionUniform(
      "int t = blockIdx.x; t += threadIdx.x; if (t > n) return;"));
  EXPECT_FALSE(firstConditionUniform("n = threadIdx.x; if (n > 3) return;"));
  EXPECT_FALSE(
      firstConditionUniform("dim3 t = threadIdx; if (t.x > n) return;"));
}

} // namespace
