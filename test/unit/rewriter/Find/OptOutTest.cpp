//===- OptOutTest.cpp - lines a NODISTWAR comment covers ------------------===//

#include "Find/OptOut.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

std::vector<unsigned> sorted(const llvm::DenseSet<unsigned> &Lines) {
  std::vector<unsigned> Out(Lines.begin(), Lines.end());
  llvm::sort(Out);
  return Out;
}

TEST(OptOut, LineNextLineAndRegions) {
  EXPECT_EQ(sorted(optedOutLines("a(); // NODISTWAR\n"
                                 "b();\n"
                                 "// NODISTWARNEXTLINE\n"
                                 "c();\n"
                                 "/* NODISTWARBEGIN */\n"
                                 "d();\n"
                                 "// NODISTWAREND\n"
                                 "e();\n")),
            (std::vector<unsigned>{1, 4, 5, 6, 7}));
}

TEST(OptOut, OnlyCommentsAndWholeMarkersCount) {
  EXPECT_TRUE(optedOutLines("f(\"NODISTWAR\");\n").empty());
  EXPECT_TRUE(optedOutLines("// NODISTWARX\n").empty());
  EXPECT_TRUE(optedOutLines("// NODISTWAR_ALL\n").empty());
  // An END without a BEGIN closes nothing; nested regions close in order.
  EXPECT_EQ(sorted(optedOutLines("// NODISTWAREND\n"
                                 "// NODISTWARBEGIN\n"
                                 "// NODISTWARBEGIN\n"
                                 "// NODISTWAREND\n"
                                 "x();\n"
                                 "// NODISTWAREND\n"
                                 "y();\n")),
            (std::vector<unsigned>{2, 3, 4, 5, 6}));
}

} // namespace
