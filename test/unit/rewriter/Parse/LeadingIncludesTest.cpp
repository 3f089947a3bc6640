//===- LeadingIncludesTest.cpp - the system headers a file starts with ----===//

#include "Parse/LeadingIncludes.h"
#include "Parse/HoistedHeaders.h"
#include "Parse/KnownMacros.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

using Names = std::vector<std::string>;

/// A project (/p, its headers in /p/include) and a system directory in
/// memory; the system headers are guarded but <unguarded.h>.
struct FakeProject {
  FakeProject() {
    for (const char *F : {"/sys/torch.h", "/sys/cub.cuh", "/sys/late.h",
                          "/sys/other.h"})
      add(F, "#pragma once\n");
    add("/sys/guarded.h", "// x\n#ifndef GUARD_H\n#define GUARD_H\n#endif\n");
    add("/sys/torchlike.h", "#if !defined(STABLE)\n#pragma once\n#endif\n");
    add("/sys/unguarded.h", "#pragma GCC system_header\n#include <late.h>\n");
    Search.AddPath("/p/include", clang::frontend::Angled, false, true);
    Search.AddPath("/sys", clang::frontend::System, false, true);
  }
  void add(llvm::StringRef Path, llvm::StringRef Text) {
    FS->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text));
  }
  Names of(llvm::StringRef Code) {
    return leadingSystemIncludes("/p/k.cu", Code, Search, PP, *FS)
        .Hoisted.Headers;
  }
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> FS =
      llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  clang::HeaderSearchOptions Search;
  clang::PreprocessorOptions PP;
};

TEST(LeadingIncludes, ThroughTheProjectsOwnHeaders) {
  FakeProject P;
  P.add("/p/include/common.h", "#pragma once\n#define CHECK(x) x\n"
                               "#include <torch.h>\n#include \"near.h\"\n"
                               "int declared;\n#include <late.h>\n");
  P.add("/p/include/near.h", "#ifndef NEAR\n#define NEAR\n"
                             "#include <cub.cuh>\n#endif\n");
  P.add("/p/config.h", "#define BUILD_IT 1\n");
  EXPECT_EQ(P.of("// A kernel file.\n#include \"config.h\"\n"
                 "#include <common.h>\n#include <other.h>\n"),
            (Names{"torch.h", "cub.cuh"}));
}

TEST(LeadingIncludes, TheMacrosDefinedBeforeTheLastOfThem) {
  FakeProject P;
  P.add("/p/config.h", "#ifndef CONFIG_H\n#define CONFIG_H\n"
                       "#define LEVEL 2 // a comment\n#endif\n");
  LeadingIncludes L = leadingSystemIncludes(
      "/p/k.cu",
      "#include \"config.h\"\n#include <torch.h>\n#undef OTHER\n"
      "#if __UNKNOWN__\n#define MAYBE 1\n#endif\n"
      "#ifdef NOT_DEFINED\n#define CONFIGURE 0\n#else\n"
      "#define CONFIGURE(x) \\\n  x\n#endif\n"
      "#ifndef DEFAULTED\n#define DEFAULTED 3\n#endif\n"
      "#define TWICE 1\n#define TWICE 1\n"
      "#include <cub.cuh>\n#define AFTER 2\n",
      P.Search, P.PP, *P.FS);
  EXPECT_EQ(L.Hoisted.Headers, (Names{"torch.h", "cub.cuh"}));
  // Made where they are made: defined once, in a block read (the one not
  // taken defines nothing), not tested before (as a guard or a default
  // is).
  ASSERT_EQ(L.Hoisted.Defines.size(), 2u);
  EXPECT_EQ(L.Hoisted.Defines[0].Name, "LEVEL");
  EXPECT_EQ(L.Hoisted.Defines[0].HeadersBefore, 0u);
  EXPECT_EQ(L.Hoisted.Defines[1].Name, "CONFIGURE");
  EXPECT_EQ(L.Hoisted.Defines[1].HeadersBefore, 1u);
  EXPECT_EQ(hoistedIncludeText(L.Hoisted),
            "#define LEVEL 2 // a comment\n#include <torch.h>\n"
            "#define CONFIGURE(x) \\\n  x\n#include <cub.cuh>\n");
  EXPECT_EQ(L.MacrosBefore, (Names{"CONFIG_H", "OTHER", "MAYBE", "DEFAULTED",
                                   "TWICE", "TWICE"}));
}

TEST(LeadingIncludes, EndsAtTheFirstDeclaration) {
  FakeProject P;
  EXPECT_EQ(P.of("#include <torch.h>\nint x;\n#include <late.h>\n"),
            Names{"torch.h"});
  EXPECT_TRUE(P.of("#include_next <torch.h>\n#include <late.h>\n").empty());
  EXPECT_TRUE(P.of("#include MACRO\n#include <late.h>\n").empty());
  EXPECT_TRUE(P.of("#include \"missing.h\"\n#include <late.h>\n").empty());
}

TEST(LeadingIncludes, OnlyGuardedHeaders) {
  FakeProject P;
  EXPECT_EQ(P.of("#include <unguarded.h>\n#include <guarded.h>\n"
                 "#include <torchlike.h>\n"),
            (Names{"guarded.h", "torchlike.h"}));
}

TEST(LeadingIncludes, ReadsTheConditionsItKnows) {
  FakeProject P;
  P.PP.addMacroDef("WITH_TORCH");
  P.add("/p/config.h", "#define LEVEL 2\n#define USE_CUB LEVEL\n");
  EXPECT_EQ(P.of("#include \"config.h\"\n"
                 "#if defined(WITH_TORCH) && USE_CUB >= 2\n#include <torch.h>\n"
                 "#elif 1\n#include <late.h>\n#endif\n"
                 "#ifdef NOT_DEFINED\nint x;\n#else\n#include <cub.cuh>\n"
                 "#endif\n#ifndef _WIN32\n#include <other.h>\n#endif\n"),
            (Names{"torch.h", "cub.cuh", "other.h"}));
}

TEST(LeadingIncludes, SkipsABlockItCannotRead) {
  FakeProject P;
  // Its declaration does not end the walk, nor do its includes count; what
  // it defines is no longer known.
  EXPECT_EQ(P.of("#if __SOME_COMPILER_VERSION > 3\nint x;\n#include <late.h>\n"
                 "#define MAYBE 1\n#else\n#include <other.h>\n#endif\n"
                 "#ifdef MAYBE\n#include <cub.cuh>\n#endif\n"
                 "#include <torch.h>\n"),
            Names{"torch.h"});
}

TEST(KnownMacros, Conditions) {
  clang::PreprocessorOptions PP;
  PP.addMacroDef("ONE=1");
  PP.addMacroUndef("GONE");
  KnownMacros M(PP);
  M.define("TWO (ONE + 1)");
  M.define("F(x) x");
  M.define("EMPTY");
  EXPECT_EQ(M.holds("if", "ONE == 1 && !defined GONE"), true);
  EXPECT_EQ(M.holds("if", "defined(F) && UNDEFINED_NAME == 0"), true);
  EXPECT_EQ(M.holds("ifndef", " ONE"), false);
  EXPECT_EQ(M.holds("ifdef", "_WIN32"), false);
  EXPECT_EQ(M.holds("ifdef", "__CUDACC__"), true);
  // Unknown: a reserved name, arithmetic, a function-like macro's value,
  // an empty value.
  EXPECT_EQ(M.holds("if", "__GNUC__ >= 9"), std::nullopt);
  EXPECT_EQ(M.holds("if", "TWO"), std::nullopt);
  EXPECT_EQ(M.holds("if", "F"), std::nullopt);
  EXPECT_EQ(M.holds("if", "EMPTY"), std::nullopt);
  // Known either way.
  EXPECT_EQ(M.holds("if", "__GNUC__ >= 9 || ONE"), true);
  EXPECT_EQ(M.holds("if", "__GNUC__ >= 9 && !ONE"), false);
  M.undefine("ONE");
  EXPECT_EQ(M.holds("if", "ONE"), false);
  M.forget("ONE");
  EXPECT_EQ(M.holds("ifdef", "ONE"), std::nullopt);
}

} // namespace
