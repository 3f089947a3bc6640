//===- PreambleTest.cpp - a file's leading includes, parsed once ----------===//

#include "Parse/Preamble.h"
#include "Parse/ParsedFile.h"
#include "Parse/SkippedBodies.h"
#include "TempTree.h"
#include "TestAST.h"
#include "distwar-rewrite/CudaArgs.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// A checkout in a temporary directory: a kernel file whose preamble
/// includes a header of its own and one of a system directory, and a cache.
class PreambleTest : public TempTree {
protected:
  void SetUp() override {
    TempTree::SetUp();
    Cache = path("cache");
    System = path("system");
    write("system/lib.h",
          "#pragma once\n"
          "inline int hostOnly() { return 1; }\n"
          "__device__ inline int deviceToo() { return 2; }\n"
          "template <class T> T templated(T x) { return x; }\n");
    write("helpers.cuh", "#pragma once\n"
                         "__device__ void addTo(float *g, float v) {\n"
                         "  atomicAdd(g, v);\n}\n");
    write("k.cu", "// A kernel file.\n"
                  "#include <lib.h>\n"
                  "#include \"helpers.cuh\"\n"
                  "__global__ void k(float *g) { addTo(g, 1.0f); }\n");
  }
  /// Parses k.cu through the cache (or none when \p UseCache is false) and
  /// calls \p Check with the result.
  void parseKernel(llvm::function_ref<void(ParsedFile &)> Check,
                   bool UseCache = true) {
    // The test's CUDA declarations as a system header, like the SDK's.
    CudaOptions Options;
    Options.NoCudaSdk = true;
    Options.ResourceDir = DISTWAR_CLANG_RESOURCE_DIR;
    std::vector<std::string> Args = {"-isystem", DISTWAR_TEST_INPUTS,
                                     "-include", "cuda_shim.h",
                                     "-isystem", std::string(System)};
    Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
    FrontEnd Front(frontEndArgs(Options, Args));
    if (UseCache)
      Front.CacheDir = std::string(Cache);
    auto Code = llvm::MemoryBuffer::getFile(path("k.cu"));
    ASSERT_TRUE(bool(Code));
    bool Ran = false;
    llvm::Error E = parseFile(path("k.cu"), (*Code)->getBuffer(), Front,
                              [&](ParsedFile &P) {
                                Ran = true;
                                EXPECT_FALSE(P.HasErrors) << P.DiagnosticText;
                                Check(P);
                              });
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
    EXPECT_TRUE(Ran);
  }

  std::vector<std::string> entries() const {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Cache, EC), End; It != End && !EC;
         It.increment(EC))
      if (llvm::sys::path::filename(It->path()).starts_with("preamble-") &&
          llvm::StringRef(It->path()).ends_with(".pch"))
        Out.push_back(It->path());
    return Out;
  }

  std::string Cache, System;
  std::vector<std::string> ExtraArgs;
};

/// Whether the traversal scope holds a function named \p Name.
bool inScope(ParsedFile &P, llvm::StringRef Name) {
  for (clang::Decl *D : P.Ctx.getTraversalScope())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getName() == Name)
        return true;
  return false;
}

/// What a parse of k.cu sees, whether or not through a preamble.
void expectTheWholeFile(ParsedFile &P, llvm::StringRef Helper) {
  EXPECT_TRUE(function(P.Ctx, "k"));
  // The header's function is visited (it holds an atomic), and its
  // #include is known (for the copies of edited headers).
  EXPECT_TRUE(inScope(P, Helper));
  EXPECT_TRUE(inScope(P, "k"));
  bool Included = false;
  for (const ParsedFile::ResolvedInclusion &I : P.Inclusions)
    Included |= I.Spelling.Spelled == "helpers.cuh" && I.File &&
                I.Spelling.RelativeToIncluder;
  EXPECT_TRUE(Included);
  EXPECT_TRUE(llvm::any_of(P.FilesRead, [](const std::string &F) {
    return llvm::StringRef(F).ends_with("helpers.cuh");
  }));
}

TEST_F(PreambleTest, IsBuiltOnceAndReadAsTheWholeFile) {
  parseKernel([](ParsedFile &P) { expectTheWholeFile(P, "addTo"); });
  std::vector<std::string> Built = entries();
  ASSERT_EQ(Built.size(), 1u);
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(Built[0], Status));
  llvm::sys::TimePoint<> When = Status.getLastModificationTime();

  parseKernel([](ParsedFile &P) { expectTheWholeFile(P, "addTo"); });
  EXPECT_EQ(entries(), Built);
  ASSERT_FALSE(llvm::sys::fs::status(Built[0], Status));
  EXPECT_EQ(Status.getLastModificationTime(), When);
  parseKernel([](ParsedFile &P) { expectTheWholeFile(P, "addTo"); },
              /*UseCache=*/false);
}

TEST_F(PreambleTest, AChangedHeaderIsReadAgain) {
  parseKernel([](ParsedFile &P) { expectTheWholeFile(P, "addTo"); });
  write("helpers.cuh", "#pragma once\n"
                       "__device__ void addToAll(float *g, float v) {\n"
                       "  atomicAdd(g, v);\n}\n"
                       "#define addTo addToAll\n");
  parseKernel([](ParsedFile &P) { expectTheWholeFile(P, "addToAll"); });
}

TEST_F(PreambleTest, AChangedPreambleIsAnotherEntry) {
  parseKernel([](ParsedFile &P) {});
  write("k.cu", "#include <lib.h>\n"
                "#include \"helpers.cuh\"\n"
                "__global__ void k(float *g) { addTo(g, 2.0f); }\n");
  parseKernel([](ParsedFile &P) { expectTheWholeFile(P, "addTo"); });
  EXPECT_EQ(entries().size(), 2u);
}

TEST_F(PreambleTest, EndsBeforeTheFirstHeaderOfTheUsers) {
  write("k.cu", "#include \"helpers.cuh\"\n"
                "#include <lib.h>\n"
                "__global__ void k(float *g) { addTo(g, 1.0f); }\n");
  parseKernel([](ParsedFile &P) { expectTheWholeFile(P, "addTo"); });
  EXPECT_TRUE(entries().empty());
}

TEST_F(PreambleTest, NoneWhereTheCommandLineIncludesAHeaderOfTheUsers) {
  // (A header a system header includes is a system header to Clang.)
  write("k.cu", "#include <lib.h>\n"
                "__global__ void k(float *g) { addTo(g, 1.0f); }\n");
  ExtraArgs = {"-include", path("helpers.cuh")};
  parseKernel([](ParsedFile &P) {
    EXPECT_TRUE(function(P.Ctx, "k"));
    EXPECT_TRUE(inScope(P, "addTo"));
  });
  EXPECT_TRUE(entries().empty());
}

TEST_F(PreambleTest, NoneWithoutAnIncludeToKeep) {
  write("k.cu", "// No include.\n"
                "__global__ void k(float *g) { atomicAdd(g, 1.0f); }\n");
  parseKernel([](ParsedFile &P) { EXPECT_TRUE(function(P.Ctx, "k")); });
  EXPECT_TRUE(entries().empty());
}

TEST_F(PreambleTest, HostBodiesOfSystemHeadersAreSkipped) {
  for (bool UseCache : {true, false})
    parseKernel(
        [](ParsedFile &P) {
          const clang::FunctionDecl *Host = function(P.Ctx, "hostOnly");
          const clang::FunctionDecl *Device = function(P.Ctx, "deviceToo");
          const clang::FunctionDecl *Template = function(P.Ctx, "templated");
          ASSERT_TRUE(Host && Device && Template);
          EXPECT_TRUE(Host->hasSkippedBody());
          EXPECT_FALSE(Device->hasSkippedBody());
          EXPECT_TRUE(Device->hasBody());
          EXPECT_TRUE(Template->hasBody());
          // The user's own host functions keep theirs.
          EXPECT_FALSE(isSkippableBody(function(P.Ctx, "addTo"),
                                       P.Ctx.getSourceManager()));
        },
        UseCache);
}

} // namespace
