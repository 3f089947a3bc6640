//===- UneditedHeadersTest.cpp - the allowed headers copied as they are ---===//

#include "Emit/UneditedHeaders.h"
#include "TileTree.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

class UneditedHeadersTest : public TileTree {};

TEST_F(UneditedHeadersTest, EveryOtherAllowedHeaderOnceAsItIs) {
  write("include/render/grad.cuh", "#pragma once\n#include \"params.cuh\"\n");
  write("include/render/params.cuh", "#pragma once\nconstexpr int kN = 3;\n");
  write("vendor/lib.cuh", "#pragma once\n");
  parseTree("#include \"render/grad.cuh\"\n#include \"lib.cuh\"\n",
            [&](ParsedFile &P, const TileFiles &) {
              HeaderFilter Filter =
                  llvm::cantFail(HeaderFilter::create({path("include")}));
              HeaderCopies Copies(Filter, P.Inclusions);
              std::vector<HeaderOutput> Out(1);
              Out[0].Edited = true;
              Out[0].Path = path("include/render/grad.cuh");
              addUneditedHeaders(P, Copies, Out);
              ASSERT_EQ(Out.size(), 2u);
              EXPECT_TRUE(Out[0].Edited);
              EXPECT_FALSE(Out[1].Edited);
              EXPECT_EQ(Out[1].Path, path("include/render/params.cuh"));
              EXPECT_EQ(Out[1].RelativePath, "render/params.cuh");
              EXPECT_EQ(Out[1].Output, "#pragma once\nconstexpr int kN = 3;\n");
              // Added once.
              addUneditedHeaders(P, Copies, Out);
              EXPECT_EQ(Out.size(), 2u);
            });
}

} // namespace
