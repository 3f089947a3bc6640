//===- FrontEndTest.cpp - nvcc spellings and hoisted CUDA headers ---------===//
//
// What the parse buffer changes (and what it must leave alone), and which
// of a file's #include lines may go into the precompiled header.
//
//===----------------------------------------------------------------------===//

#include "distwar/HoistedHeaders.h"
#include "distwar/NvccSpelling.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

std::string parseBuffer(llvm::StringRef Code) {
  std::string Out = applySpellingFixes(Code, findNvccSpellings(Code));
  EXPECT_EQ(Out.size(), Code.size());
  return Out;
}

TEST(NvccSpelling, SpacedLaunchesJoinedInPlace) {
  EXPECT_EQ(parseBuffer("k << <g, b >> > (x);"), "k <<< g, b >>>  (x);");
  EXPECT_EQ(parseBuffer("k<</*c*/<1, 2>>\n>(x);"),
            "k<<</*c*/1, 2>>>\n(x);");
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

/// A CUDA SDK (system directory) and a user directory in memory.
struct FakeSearch {
  FakeSearch() {
    for (const char *F : {"/sdk/include/cuda_runtime.h",
                          "/sdk/include/cooperative_groups.h",
                          "/sdk/include/cccl/cub/cub.cuh", "/usr/lib/vector",
                          "/user/cooperative_groups/reduce.h",
                          "/sdk/include/cooperative_groups/reduce.h"})
      FS->addFile(F, 0, llvm::MemoryBuffer::getMemBuffer(""));
    Search.AddPath("/user", clang::frontend::Angled, false, true);
    Search.AddPath("/usr/lib", clang::frontend::System, false, true);
    Search.AddPath("/sdk/include", clang::frontend::System, false, true);
    Search.AddPath("/sdk/include/cccl", clang::frontend::System, false, true);
  }
  std::vector<std::string> of(llvm::StringRef Code) {
    return hoistableIncludes(Code, Search, *FS);
  }
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> FS =
      llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  clang::HeaderSearchOptions Search;
};

TEST(HoistedHeaders, CudaSdkIncludesAtFileScope) {
  FakeSearch S;
  EXPECT_EQ(S.of("#define X 1\n#include \"mine.h\"\n#include "
                 "<cooperative_groups.h>\n#include <cub/cub.cuh>\n#include "
                 "<vector>\n"),
            (std::vector<std::string>{"cooperative_groups.h", "cub/cub.cuh"}));
}

TEST(HoistedHeaders, NotUnderConditionsInBracesOrShadowed) {
  FakeSearch S;
  EXPECT_TRUE(S.of("#ifdef CG\n#include <cooperative_groups.h>\n#endif\n")
                  .empty());
  EXPECT_TRUE(
      S.of("namespace n {\n#include <cooperative_groups.h>\n}\n").empty());
  // A user directory holds one with the same name: not the SDK's.
  EXPECT_TRUE(S.of("#include <cooperative_groups/reduce.h>\n").empty());
  // A directive's braces are not the file's.
  EXPECT_EQ(S.of("#define OPEN {\n#include <cooperative_groups.h>\n"),
            std::vector<std::string>{"cooperative_groups.h"});
}

} // namespace
