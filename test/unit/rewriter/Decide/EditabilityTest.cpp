//===- EditabilityTest.cpp - whether a group's edits can be written -------===//
//
// A group safe to batch is still refused when one of its edits would land in
// a macro expansion or cut an #if block; a butterfly whose flag edits could
// not be written becomes serial, with the reason as its note.
//
//===----------------------------------------------------------------------===//

#include "Decide/Editability.h"
#include "Decide/VariantChoice.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The decisions of \p P's groups after the variant choice and the
/// editability check, as the rewriter makes them for --variant=auto.
std::vector<VariantDecision> decide(Parsed &P) {
  std::vector<VariantDecision> D =
      chooseVariants(P.context(), P.Sites, P.Groups, Variant::Auto);
  checkEditability(P.context(), P.Sites, P.Groups, D);
  return D;
}

TEST(Editability, WholeIfBlocksBetweenSitesAreWritable) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, float v, int n) {
      for (int i = 0; i < n; ++i) {
        const int id = ids[i];
        atomicAdd(&g[id * 3 + 0], v);
    #ifdef WITH_GREEN
        atomicAdd(&g[id * 3 + 1], v);
    #endif
        atomicAdd(&g[id * 3 + 2], v);
      }
    })cu");
  std::vector<VariantDecision> D = decide(P);
  ASSERT_EQ(P.Groups.size(), 1u);
  EXPECT_EQ(P.Groups[0].Why, Reason::None);
}

TEST(Editability, AnIfBlockCutByTheGroupIsRefused) {
  // The batch would be declared inside the block, the reduction after it.
  AnnotatedCode Code(R"cu(
    __global__ void k(float *g, const int *ids, float v, int n) {
      for (int i = 0; i < n; ++i) {
        const int id = ids[i];
    #ifndef WITHOUT_RED
        atomicAdd(&g[id * 2 + 0], v);
    $endif^#endif
        atomicAdd(&g[id * 2 + 1], v);
      }
    })cu");
  Parsed P = parse(Code.code());
  std::vector<VariantDecision> D = decide(P);
  ASSERT_EQ(P.Groups.size(), 1u);
  EXPECT_EQ(P.Groups[0].Why, Reason::PreprocessorConditional);
  // The note points at the directive the group's region holds without its
  // partner.
  ASSERT_TRUE(P.Groups[0].Why.Place);
  const clang::SourceManager &SM = P.context().getSourceManager();
  EXPECT_EQ(
      offsetOf(P.context(), SM.translateLineCol(SM.getMainFileID(),
                                                P.Groups[0].Why.Place->Line,
                                                P.Groups[0].Why.Place->Column)),
      Code.point("endif"));
}

TEST(Editability, ButterflyWhoseContinueIsAMacroBecomesSerial) {
  // The key is uniform (the butterfly's), but the `continue` the live flag
  // would replace is spelled in a macro body.
  Parsed P = parse(R"cu(
    #define SKIP_IF(c) if (c) continue
    __global__ void k(float *g, float v, int n) {
      for (int i = 0; i < n; ++i) {
        SKIP_IF(threadIdx.x % 2);
        atomicAdd(&g[i * 2 + 0], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu");
  std::vector<VariantDecision> D = decide(P);
  ASSERT_EQ(P.Groups.size(), 1u);
  EXPECT_EQ(P.Groups[0].Why, Reason::None);
  EXPECT_EQ(D[0].Kind, GroupVariant::Serial);
  EXPECT_EQ(D[0].Note, Reason::MacroExpansion);
}

TEST(Editability, ButterflyWithWritableFlagStays) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, float v, int n) {
      for (int i = 0; i < n; ++i) {
        if (threadIdx.x % 2)
          continue;
        atomicAdd(&g[i * 2 + 0], v);
        atomicAdd(&g[i * 2 + 1], v);
      }
    })cu");
  std::vector<VariantDecision> D = decide(P);
  ASSERT_EQ(P.Groups.size(), 1u);
  EXPECT_EQ(P.Groups[0].Why, Reason::None);
  EXPECT_EQ(D[0].Kind, GroupVariant::ButterflyUniform);
}

} // namespace
