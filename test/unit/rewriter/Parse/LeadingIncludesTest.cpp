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
        .front()
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
  std::vector<HoistingChoice> Choices =
      leadingSystemIncludes("/p/k.cu",
                            "// A kernel file.\n#include \"config.h\"\n"
                            "#include <common.h>\n#include <other.h>\n",
                            P.Search, P.PP, *P.FS);
  // Every one at file scope first; then those before the first declaration.
  ASSERT_EQ(Choices.size(), 2u);
  EXPECT_EQ(Choices[0].Hoisted.Headers,
            (Names{"torch.h", "cub.cuh", "late.h", "other.h"}));
  EXPECT_EQ(Choices[1].Hoisted.Headers, (Names{"torch.h", "cub.cuh"}));
  ASSERT_EQ(Choices[1].Hoisted.Defines.size(), 2u);
  EXPECT_EQ(Choices[1].Hoisted.Defines[1].Name, "CHECK");
}

TEST(LeadingIncludes, TheMacrosDefinedBeforeTheLastOfThem) {
  FakeProject P;
  P.add("/p/config.h", "#ifndef CONFIG_H\n#define CONFIG_H\n"
                       "#define LEVEL 2 // a comment\n#endif\n");
  std::vector<HoistingChoice> Choices =
      leadingSystemIncludes("/p/k.cu",
                            "#include \"config.h\"\n"
                            "#ifdef NOT_DEFINED\n#define CONFIGURE 0\n#else\n"
                            "#define CONFIGURE(x) \\\n  x\n#endif\n"
                            "#include <torch.h>\n#undef OTHER\n"
                            "#if __UNKNOWN__\n#define MAYBE 1\n#endif\n"
                            "#ifndef DEFAULTED\n#define DEFAULTED 3\n#endif\n"
                            "#define TWICE 1\n#define TWICE 1\n"
                            "#include <cub.cuh>\n#define AFTER 2\n",
                            P.Search, P.PP, *P.FS);
  ASSERT_EQ(Choices.size(), 1u);
  const HoistingChoice &L = Choices.front();
  EXPECT_EQ(L.Hoisted.Headers, (Names{"torch.h", "cub.cuh"}));
  // Made where they are made: defined once, in a block read (the one not
  // taken defines nothing; after torch.h, DEFAULTED may be torch's), not
  // tested before (as a guard is).
  ASSERT_EQ(L.Hoisted.Defines.size(), 2u);
  EXPECT_EQ(L.Hoisted.Defines[0].Name, "LEVEL");
  EXPECT_EQ(L.Hoisted.Defines[0].HeadersBefore, 0u);
  EXPECT_EQ(L.Hoisted.Defines[1].Name, "CONFIGURE");
  EXPECT_EQ(L.Hoisted.Defines[1].HeadersBefore, 0u);
  EXPECT_EQ(hoistedIncludeText(L.Hoisted),
            "#define LEVEL 2 // a comment\n#define CONFIGURE(x) \\\n  x\n"
            "#include <torch.h>\n#include <cub.cuh>\n");
  EXPECT_EQ(L.MacrosBefore,
            (Names{"CONFIG_H", "MAYBE", "DEFAULTED", "TWICE", "TWICE"}));
  // Undefined where not defined: it matters only if the headers define it.
  EXPECT_EQ(L.UnsetBefore, Names{"OTHER"});
}

TEST(LeadingIncludes, EndsWhereItCannotFollow) {
  FakeProject P;
  EXPECT_TRUE(P.of("#include_next <torch.h>\n#include <late.h>\n").empty());
  EXPECT_TRUE(P.of("#include MACRO\n#include <late.h>\n").empty());
  EXPECT_TRUE(P.of("#include \"missing.h\"\n#include <late.h>\n").empty());
  // Included inside a namespace or an initializer: not at file scope.
  EXPECT_EQ(P.of("#include <torch.h>\nnamespace n {\n#include <late.h>\n}\n"
                 "#include <other.h>\n"),
            Names{"torch.h"});
  EXPECT_EQ(P.of("int a[] = (\n#include <late.h>\n);\n"), Names{});
  EXPECT_EQ(P.of("namespace n { int f() { return 0; } }\n#include <late.h>\n"),
            Names{"late.h"});
}

TEST(LeadingIncludes, ADefineAfterCodeThatSpellsIt) {
  FakeProject P;
  std::vector<HoistingChoice> Choices = leadingSystemIncludes(
      "/p/k.cu",
      "int LATER = 1;\n#define LATER 2\n#define FRESH 3\n#include <late.h>\n",
      P.Search, P.PP, *P.FS);
  ASSERT_EQ(Choices.size(), 1u);
  ASSERT_EQ(Choices[0].Hoisted.Defines.size(), 1u);
  EXPECT_EQ(Choices[0].Hoisted.Defines[0].Name, "FRESH");
  EXPECT_EQ(Choices[0].MacrosBefore, Names{"LATER"});
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
                 "#ifdef NOT_DEFINED\nint x;\n#else\n#include <cub.cuh>\n"
                 "#endif\n"
                 "#if defined(WITH_TORCH) && USE_CUB >= 2\n#include <torch.h>\n"
                 "#elif 1\n#include <late.h>\n#endif\n"
                 "#ifndef _WIN32\n#include <other.h>\n#endif\n"),
            (Names{"cub.cuh", "torch.h", "other.h"}));
  // Once a library's header is read, a name not met may be one it defines;
  // the CUDA runtime's version is defined, its value not known.
  EXPECT_EQ(P.of("#include <torch.h>\n#ifdef __CUDACC__\n#include <other.h>\n"
                 "#endif\n#ifndef TORCH_CONFIG\n#define LOCAL 1\n#endif\n"
                 "#if CUDART_VERSION >= 12000\n#define NEW 1\n#endif\n"
                 "#ifdef CUDART_VERSION\n#include <cub.cuh>\n#endif\n"),
            (Names{"torch.h", "other.h", "cub.cuh"}));
}

TEST(LeadingIncludes, SkipsABlockItCannotRead) {
  FakeProject P;
  // Its code does not count; what it defines is no longer known.
  EXPECT_EQ(P.of("#if __SOME_COMPILER_VERSION > 3\nint x;\n"
                 "#define MAYBE 1\n#else\nint y;\n#endif\n"
                 "#ifdef MAYBE\n#define SURE 1\n#endif\n"
                 "#include <torch.h>\n"),
            Names{"torch.h"});
  // What it includes may come before what follows: the walk ends there.
  EXPECT_EQ(P.of("#include <other.h>\n#if __SOME_COMPILER_VERSION > 3\n"
                 "#include \"config.h\"\n#endif\n#include <torch.h>\n"),
            Names{"other.h"});
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
