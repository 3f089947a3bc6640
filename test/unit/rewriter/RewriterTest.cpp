//===- RewriterTest.cpp - what the driver recognises as its own output ----===//

#include "distwar-rewrite/Rewriter.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

TEST(Rewriter, OwnOutputIsRecognisedByTokens) {
  EXPECT_TRUE(looksRewritten("#include <distwar/runtime.cuh>\n"));
  EXPECT_TRUE(looksRewritten("x; ::distwar::reduceSerial(b, k, 0);"));
  EXPECT_FALSE(looksRewritten("// distwar_batch0 and DISTWAR_SITES(\n"));
  EXPECT_FALSE(looksRewritten("/* ::distwar::reduceSerial */ int x;"));
}

} // namespace
