//===- SiteTableNamesTest.cpp - identifiers of the per-file site tables ---===//

#include "Emit/SiteTableNames.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

TEST(SiteTableIdentifier, ReplacesEveryOtherCharacter) {
  EXPECT_EQ(siteTableIdentifier("render/grad.cuh"),
            "distwar_sites_render_grad_cuh");
  EXPECT_EQ(siteTableIdentifier("a-b c.h"), "distwar_sites_a_b_c_h");
}

TEST(SiteTableName, MadeOfTheFileNameOnly) {
  // The directories do not count: a file gives the same table wherever it
  // is rewritten from.
  EXPECT_EQ(siteTableName("/src/render/grad-fwd.cu"),
            "distwar_sites_grad_fwd_cu");
  EXPECT_EQ(siteTableName("k.cu"), "distwar_sites_k_cu");
}

} // namespace
