//===- ContinueSplitTest.cpp - groups cut at per-lane continues -----------===//
//
// Lanes that continue between two sites of a group added the first and not
// the second: batched as one group they would add both or neither.
//
//===----------------------------------------------------------------------===//

#include "Group/ContinueSplit.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// \p P's groups split at continues. The driver splits before it decides
/// safety, so the reasons parse() decided are dropped first.
std::vector<SiteGroup> groupsSplitAtContinues(Parsed &P) {
  std::vector<SiteGroup> Groups = P.Groups;
  for (SiteGroup &G : Groups)
    G.Why = Reason::None;
  splitAtContinues(P.Sites, Groups);
  return Groups;
}

TEST(ContinueSplit, ContinueBetweenSitesMakesTwoParts) {
  // Two groups (keys g and h), each cut by the one continue.
  AnnotatedCode Code(R"cu(
    __global__ void k(float *a, float *b, float *c, float *d, const int *ids,
                      const float *x, int n, float v) {
      for (int j = 0; j < n; ++j) {
        int g = ids[j];
        int h = ids[j + n];
        $g1^atomicAdd(&a[g], v);
        $h1^atomicAdd(&c[h], v);
        if (x[j] > 0.f)
          continue;
        $g2^atomicAdd(&b[g], v);
        $h2^atomicAdd(&d[h], v);
      }
    })cu");
  Parsed P = parse(Code.code());
  ASSERT_EQ(P.Sites.size(), 4u);
  ASSERT_EQ(P.Groups.size(), 2u);
  std::vector<SiteGroup> Parts = groupsSplitAtContinues(P);
  // The parts of one group share its SplitId (the variant choice may join
  // them again); each split group has its own.
  struct Expected {
    size_t Site;
    unsigned SplitId;
    const char *Point;
  };
  const Expected Want[] = {
      {0, 1, "g1"}, {2, 1, "g2"}, {1, 2, "h1"}, {3, 2, "h2"}};
  ASSERT_EQ(Parts.size(), std::size(Want));
  clang::ASTContext &Ctx = P.context();
  for (size_t I = 0; I < Parts.size(); ++I) {
    EXPECT_EQ(Parts[I].Sites, std::vector<size_t>{Want[I].Site}) << I;
    EXPECT_EQ(Parts[I].SplitId, Want[I].SplitId) << I;
    // Each part's region is its own statement.
    ASSERT_TRUE(Parts[I].First && Parts[I].Last) << I;
    EXPECT_EQ(Parts[I].First, Parts[I].Last) << I;
    EXPECT_EQ(offsetOf(Ctx, Parts[I].First->getBeginLoc()),
              Code.point(Want[I].Point))
        << I;
  }
}

TEST(ContinueSplit, GroupsWithoutSuchAContinueStayWhole) {
  // A continue after the last site, one of a nested loop, and one next to a
  // return (lanes that return leave more than the group's second part).
  for (llvm::StringRef Between :
       {"", "for (int q = 0; q < n; ++q) if (x[q] > 0.f) continue;",
        "if (x[j] > 0.f) continue; if (x[j] < 0.f) return;"}) {
    std::string Code = (R"cu(
      __global__ void k(float *a, float *b, const int *ids, const float *x,
                        int n, float v) {
        for (int j = 0; j < n; ++j) {
          int g = ids[j];
          atomicAdd(&a[g], v);
          )cu" + Between +
                        R"cu(
          atomicAdd(&b[g], v);
          if (x[j] > 1.f)
            continue;
        }
      })cu")
                           .str();
    Parsed P = parse(Code);
    ASSERT_EQ(P.Groups.size(), 1u) << Between.str();
    std::vector<SiteGroup> Groups = groupsSplitAtContinues(P);
    ASSERT_EQ(Groups.size(), 1u) << Between.str();
    EXPECT_EQ(Groups[0].Sites, (std::vector<size_t>{0, 1})) << Between.str();
    EXPECT_EQ(Groups[0].SplitId, 0u) << Between.str();
  }
}

} // namespace
