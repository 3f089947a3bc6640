//===- NvccSpellingTest.cpp - nvcc spellings in the parse buffer ----------===//
//
// What the parse buffer changes (and what it must leave alone) so that
// Clang reads the launches and asm strings nvcc accepts.
//
//===----------------------------------------------------------------------===//

#include "Parse/NvccSpelling.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

/// The parse buffer of \p Code: fixes never move what follows them.
std::string parseBuffer(llvm::StringRef Code) {
  std::string Out = applySpellingFixes(Code, findNvccSpellings(Code));
  EXPECT_EQ(Out.size(), Code.size());
  return Out;
}

TEST(NvccSpelling, SpacedLaunchesJoinedInPlace) {
  EXPECT_EQ(parseBuffer("k << <g, b >> > (x);"), "k <<< g, b >>>  (x);");
  EXPECT_EQ(parseBuffer("k<</*c*/<1, 2>>\n>(x);"), "k<<</*c*/1, 2>>>\n(x);");
  // A shift inside the configuration is not its end.
  EXPECT_EQ(parseBuffer("k << <n >> 8, 32 >> >(x);"),
            "k <<< n >> 8, 32 >>> (x);");
}

TEST(NvccSpelling, WhatNvccRejectsOrIsNoLaunchStaysAsItIs) {
  for (llvm::StringRef Code :
       {"k<<\n<1, 2>>>(x);", "k < <<1, 2>>>(x);",
        "friend std::ostream &operator<< <>(std::ostream &, const A<T> &);",
        "using N = P<P<P<int>> >;", "a << b; c >> d;",
        "const char *s = \"<< <\";", "// << < >> >"})
    EXPECT_TRUE(findNvccSpellings(Code).empty()) << Code.str();
}

TEST(NvccSpelling, BracedLaunchArguments) {
  EXPECT_EQ(parseBuffer("k<<<g, {16, 4, 4}>>>(x);"),
            "k<<<g, (16, 4, 4)>>>(x);");
  EXPECT_EQ(parseBuffer("k<<<{2, f({1, 2})}, {}, 0, s>>>(x);"),
            "k<<<(2, f({1, 2})), 0 , 0, s>>>(x);");
  // Braces inside an argument are the user's expression.
  EXPECT_TRUE(findNvccSpellings("k<<<dim3{8}, f({1})>>>(x);").empty());
}

TEST(NvccSpelling, PercentBeforeARegisterName) {
  EXPECT_EQ(parseBuffer("asm(\"mov.u32 %0, %lanemask_lt;\" : \"=r\"(r));"),
            "asm(\"mov.u32 %0, %%anemask_lt;\" : \"=r\"(r));");
  EXPECT_EQ(parseBuffer("asm volatile(\"mov.u32 %0, %laneid;\\n\\t\"\n"
                        "             \"add.u32 %0, %0, %1;\" : \"=r\"(r) : "
                        "\"r\"(a));"),
            "asm volatile(\"mov.u32 %0, %%aneid;\\n\\t\"\n"
            "             \"add.u32 %0, %0, %1;\" : \"=r\"(r) : \"r\"(a));");
  // What Clang reads as operands and escapes stays; so does every other
  // string.
  for (llvm::StringRef Code :
       {"asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r));",
        "asm(\"add.u32 %0, %1, %[x];\" : \"=r\"(r) : \"r\"(a), [x] \"r\"(b));",
        "asm(\"mov.b32 %0, %c1;\" : \"=r\"(r) : \"n\"(4));",
        "printf(\"%lu %s\", n, s);"})
    EXPECT_TRUE(findNvccSpellings(Code).empty()) << Code.str();
}

} // namespace
