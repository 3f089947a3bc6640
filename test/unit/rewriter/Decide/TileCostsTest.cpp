//===- TileCostsTest.cpp - what a tile costs, computed before its launch --===//

#include "Decide/TileCosts.h"
#include "Decide/TileKernels.h"
#include "TestAST.h"
#include "gtest/gtest.h"

#include <optional>
#include <vector>

using namespace distwar;
using namespace distwar::test;

namespace {

/// The plan of the one kernel `k` of \p Code, launched by `run`.
TileKernelPlan planOfK(Parsed &P) {
  for (const TileKernelPlan &K : planTiles(P.context()).Kernels)
    if (K.Kernel->getName() == "k")
      return K;
  ADD_FAILURE() << "no plan for k";
  return {};
}

/// Kernel `k` with \p Body after \p Prelude, launched by \p Run's body,
/// by default once with `(c, v, n)`.
std::string kernel(const std::string &Body, const std::string &Prelude = "",
                   const std::string &Run = "k<<<4, 32>>>(c, v, n);") {
  return Prelude +
         "__device__ int twice(int x) { return 2 * x; }\n"
         "#define PLACE blockIdx.x\n"
         "#define AT(t) c[t]\n"
         "#define BELOW(a, b) ((a) < (b))\n"
         "__global__ void k(const int *c, float *v, int n) {\n" +
         Body + "}\n" + "void run(const int *c, float *v, int n) {\n" + Run +
         "\n}\n";
}

/// Whether kernel `k` with \p Body (after \p Prelude) is balanced with a
/// cost.
bool costed(const std::string &Body, const std::string &Prelude = "") {
  Parsed P = parse(kernel(Body, Prelude));
  TileKernelPlan K = planOfK(P);
  EXPECT_TRUE(K.balanced()) << Body;
  return K.Cost.has_value();
}

/// Each launch's `Ordered`, or none where `k` has no cost.
std::optional<std::vector<bool>> orderedLaunches(const std::string &Code) {
  Parsed P = parse(Code);
  TileKernelPlan K = planOfK(P);
  if (!K.Cost)
    return std::nullopt;
  std::vector<bool> Ordered;
  for (const auto &L : K.Launches)
    Ordered.push_back(L.Ordered);
  return Ordered;
}

TEST(TileCosts, TheLoopsBoundThroughTheBodysDeclarations) {
  Parsed P = parse(kernel("  const int base = n * 2;\n"
                          "  int unused = 3, count = c[blockIdx.x + base];\n"
                          "  float x = v[threadIdx.x];\n"
                          "  for (int i = 1; i < count && x > 0; ++i)\n"
                          "    v[blockIdx.x] += x;\n"));
  TileKernelPlan K = planOfK(P);
  ASSERT_TRUE(K.Cost);
  // The declarations the bound reads, the whole of each.
  ASSERT_EQ(K.Cost->Decls.size(), 2u);
  ASSERT_TRUE(K.Cost->Decls[0]->isSingleDecl());
  EXPECT_EQ(cast<VarDecl>(K.Cost->Decls[0]->getSingleDecl())->getName(),
            "base");
  ASSERT_FALSE(K.Cost->Decls[1]->isSingleDecl());
  EXPECT_EQ(cast<VarDecl>(*K.Cost->Decls[1]->decl_begin())->getName(),
            "unused");
  ASSERT_EQ(K.Launches.size(), 1u);
  EXPECT_TRUE(K.Launches[0].Ordered);
}

TEST(TileCosts, TheBoundMustDependOnTheTileAlone) {
  // The same in every tile: nothing to order by.
  EXPECT_FALSE(costed("  for (int i = 0; i < n; ++i) v[blockIdx.x] += 1;\n"));
  // A thread's value.
  EXPECT_FALSE(costed("  int m = c[blockIdx.x + threadIdx.x];\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_FALSE(costed("  int m = c[blockIdx.x] + blockDim.x;\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_TRUE(costed("  int m = c[blockIdx.x] + gridDim.x;\n"
                     "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
}

TEST(TileCosts, LoadsOnlyWhereTheKernelLoadedUnconditionally) {
  // An index loaded from memory.
  EXPECT_FALSE(costed("  int m = c[c[blockIdx.x]];\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  // A load behind a condition.
  EXPECT_FALSE(costed("  int m = n > 0 ? c[blockIdx.x] : 0;\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_FALSE(costed("  int m = n > 0 && c[blockIdx.x];\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_TRUE(costed("  int m = c[blockIdx.x] > 0 ? n : 1;\n"
                     "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  // A pointer the body changes: the block's next tile would see it
  // changed, so the kernel is not balanced at all.
  Parsed P = parse(kernel("  c += 1;\n"
                          "  int m = c[blockIdx.x];\n"
                          "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_EQ(planOfK(P).Why.Code, Reason::TileBlockOrder);
}

TEST(TileCosts, TheDeclarationsMustRunBeforeAnyExit) {
  EXPECT_FALSE(costed("  if (blockIdx.x >= n) return;\n"
                      "  int m = c[blockIdx.x];\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_FALSE(costed("  for (int j = 0; j < n; ++j)\n"
                      "    if (v[j] < 0) return;\n"
                      "  int m = c[blockIdx.x];\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  // A return after the loop is not the cost's business.
  EXPECT_TRUE(costed("  int m = c[blockIdx.x];\n"
                     "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"
                     "  if (n) return;\n"
                     "  v[0] = 1;\n"));
}

TEST(TileCosts, NoCallsButMinAndMaxNoChangedLocals) {
  EXPECT_FALSE(costed("  int m = twice(c[blockIdx.x]);\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_FALSE(costed("  int m = c[blockIdx.x];\n"
                      "  m += 1;\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
  EXPECT_TRUE(costed("  int m = min(c[blockIdx.x], n);\n"
                     "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
}

TEST(TileCosts, ALocalMustNotChangeNorDoAnythingAtItsEnd) {
  const std::string Pair = "struct Pair { int x, y; };\n";
  // Clamped through a member: the cost kernel would index with the
  // unclamped value.
  EXPECT_FALSE(costed("  Pair t = {(int)blockIdx.x, 0};\n"
                      "  t.x = min(t.x, n - 1);\n"
                      "  int m = c[t.x];\n"
                      "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n",
                      Pair));
  EXPECT_TRUE(costed("  Pair t = {(int)blockIdx.x, 0};\n"
                     "  int m = c[t.x];\n"
                     "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n",
                     Pair));
  // A destructor would run in the cost kernel too.
  EXPECT_FALSE(costed("  Counted t = {v + blockIdx.x, (int)blockIdx.x};\n"
                      "  for (int i = 0; i < t.n; ++i) v[blockIdx.x] += 1;\n",
                      "struct Counted {\n"
                      "  float *p;\n"
                      "  int n;\n"
                      "  __device__ ~Counted() { *p += n; }\n"
                      "};\n"));
}

TEST(TileCosts, ABoundBehindAnotherConjunctDoesNotLoad) {
  // The original reads c only where n > 0.
  EXPECT_FALSE(costed("  for (int i = 0; n > 0 && i < c[blockIdx.x]; ++i) "
                      "v[blockIdx.x] += 1;\n"));
  EXPECT_TRUE(costed("  for (int i = 0; i < c[blockIdx.x] && n > 0; ++i) "
                     "v[blockIdx.x] += 1;\n"));
  EXPECT_TRUE(costed(
      "  for (int i = 0; n > 0 && i < blockIdx.x; ++i) v[blockIdx.x] += 1;\n"));
}

TEST(TileCosts, TextInsideAMacrosExpansionIsNotCopied) {
  // Copying the bound would copy the whole of BELOW(i, ...).
  EXPECT_FALSE(costed(
      "  for (int i = 0; BELOW(i, c[blockIdx.x]); ++i) v[blockIdx.x] += 1;\n"));
  // A whole declaration holding a macro call is copied with it.
  EXPECT_TRUE(costed("  int m = AT(blockIdx.x);\n"
                     "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"));
}

TEST(TileCosts, TheBlocksPlaceSpelledInTheCopiedText) {
  // The cost kernel would read its own blockIdx through the macro.
  // Refused before any cost is looked for (DW0064).
  Parsed P = parse(kernel("  int m = c[PLACE];\n"
                          "  for (int i = 0; i < m; ++i) v[PLACE] += 1;\n"));
  TileKernelPlan K = planOfK(P);
  EXPECT_FALSE(K.balanced() && K.Cost);
  EXPECT_EQ(K.Why.Code, Reason::TileHiddenBlockIndex);
}

TEST(TileCosts, CommentsBesideTheMovedTextStayBehind) {
  // A comment inside an argument keeps a launch in launch order
  // (test/balance/order.test); one beside the text moved does not: it
  // follows the declaration's `;`.
  EXPECT_EQ(orderedLaunches(
                kernel("  int m = c[blockIdx.x]; // the count\n"
                       "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n",
                       "", "  k<<<4, 32>>>(c, v /* out */, n);")),
            std::vector<bool>{true});
}

TEST(TileCosts, ATemplatesDependentValuesAreNotCosts) {
  // In an instance, `c[blockIdx.x]` may convert through a user's operator.
  Parsed P =
      parse("template <typename T>\n"
            "__global__ void k(const T *c, float *v) {\n"
            "  int m = c[blockIdx.x];\n"
            "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n"
            "}\n"
            "void run(const int *c, float *v) { k<int><<<4, 32>>>(c, v); }\n");
  TileKernelPlan K = planOfK(P);
  EXPECT_TRUE(K.balanced());
  EXPECT_FALSE(K.Cost);
}

TEST(TileCosts, AnArgumentsTemporaryMustOutliveTheLaunch) {
  // Moved into a variable, the buffer would be freed before the launch.
  EXPECT_EQ(orderedLaunches(
                kernel("  int m = c[blockIdx.x];\n"
                       "  for (int i = 0; i < m; ++i) v[blockIdx.x] += 1;\n",
                       "struct Buffer {\n"
                       "  Buffer(int n);\n"
                       "  ~Buffer();\n"
                       "  int *data() const;\n"
                       "};\n",
                       "  k<<<4, 32>>>(Buffer(n).data(), v, n);\n"
                       "  k<<<4, 32>>>(nullptr, v, n);")),
            (std::vector<bool>{false, true}));
}

} // namespace
