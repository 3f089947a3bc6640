//===- AnnotatedCodeTest.cpp - the marks of the tests' annotated code -----===//
//
// Every position test compares against these offsets: a mark counted in
// code() or an offset one off would make those tests check the wrong place.
//
//===----------------------------------------------------------------------===//

#include "TestAST.h"
#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

using namespace distwar::test;

namespace {

TEST(AnnotatedCode, PointsAndRangesAreOffsetsIntoTheCleanCode) {
  AnnotatedCode A("a^b$x^c$r[[d[[e]]]]f$x^");
  EXPECT_EQ(A.code(), "abcdef");
  EXPECT_EQ(A.point(), 1u);
  EXPECT_EQ(A.points("x"), (std::vector<size_t>{2, 6}));
  EXPECT_EQ(A.range("r"), (AnnotatedCode::Range{3, 5}));
  EXPECT_EQ(A.range(), (AnnotatedCode::Range{4, 5}));
  EXPECT_TRUE(A.points("none").empty());
}

TEST(AnnotatedCode, DollarWithoutAMarkIsCode) {
  AnnotatedCode A("$a b$ c$d^");
  EXPECT_EQ(A.code(), "$a b$ c");
  EXPECT_EQ(A.point("d"), 7u);
  EXPECT_TRUE(A.points().empty());
}

TEST(AnnotatedCode, AmbiguousOrMalformedMarksFail) {
  AnnotatedCode Two("^a^");
  EXPECT_NONFATAL_FAILURE(Two.point(), "exactly one point");
  EXPECT_NONFATAL_FAILURE(Two.range(), "exactly one range");
  EXPECT_NONFATAL_FAILURE(AnnotatedCode("a]]"), "without '[['");
  EXPECT_NONFATAL_FAILURE(AnnotatedCode("[[a"), "never closed");
}

} // namespace
