//===- PchCacheTest.cpp - precompiled CUDA headers, kept across runs ------===//

#include "distwar-rewrite/PchCache.h"
#include "Parse/PrecompiledHeaders.h"
#include "Parse/ParsedFile.h"
#include "TestAST.h"
#include "distwar-rewrite/CudaArgs.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <optional>

using namespace distwar;
using namespace distwar::test;

namespace {

/// Sets an environment variable for one test, restoring it after.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    if (Value)
      ::setenv(Name, Value, 1);
    else
      ::unsetenv(Name);
  }
  ~ScopedEnv() {
    if (Saved)
      ::setenv(Name, Saved->c_str(), 1);
    else
      ::unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

TEST(PchCache, DefaultCacheDirFollowsTheEnvironment) {
  {
    ScopedEnv Own("DISTWAR_CACHE_DIR", "/tmp/own-cache");
    EXPECT_EQ(defaultCacheDir(), "/tmp/own-cache");
  }
  ScopedEnv Own("DISTWAR_CACHE_DIR", nullptr);
  {
    ScopedEnv Xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(defaultCacheDir(), "/tmp/xdg/distwar");
  }
  // A relative XDG_CACHE_HOME is ignored, as the spec says.
  ScopedEnv Xdg("XDG_CACHE_HOME", "relative/cache");
  ScopedEnv Home("HOME", "/home/someone");
  EXPECT_EQ(defaultCacheDir(), "/home/someone/.cache/distwar");
}

/// Files of \p Dir whose names end with \p Suffix.
std::vector<std::string> filesEndingWith(llvm::StringRef Dir,
                                         llvm::StringRef Suffix) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(Suffix))
      Out.push_back(It->path());
  return Out;
}

TEST(PchCache, DiscardRemovesTheEntryAndItsSidecars) {
  llvm::SmallString<256> Root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("distwar-pch", Root));
  std::string Pch = (Root + "/cuda-0123.pch").str();
  for (const std::string &F :
       {Pch, (Root + "/cuda-0123.inputs").str(),
        (Root + "/cuda-0123.names").str(), (Root + "/other.pch").str()}) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(F, EC);
    ASSERT_FALSE(EC);
  }
  discardPrecompiledHeader(Pch);
  EXPECT_EQ(filesEndingWith(Root, ""),
            std::vector<std::string>{(Root + "/other.pch").str()});
  llvm::sys::fs::remove_directories(Root);
}

/// A parse with the installed CUDA SDK (whose wrapper a precompiled header
/// holds) through the cache \p CacheDir; false when it failed.
bool parseWithSdk(llvm::StringRef CacheDir) {
  CudaOptions Options;
  Options.CudaPath = "/usr/local/cuda";
  Options.ResourceDir = DISTWAR_CLANG_RESOURCE_DIR;
  FrontEnd Front(frontEndArgs(Options, {}));
  Front.CacheDir = CacheDir.str();
  bool Parsed = false;
  llvm::Error E = parseFile(
      "/virtual/pch.cu",
      "__global__ void k(float *g, float v) { atomicAdd(g, v); }\n", Front,
      [&](ParsedFile &P) { Parsed = !P.HasErrors && function(P.Ctx, "k"); });
  if (E) {
    ADD_FAILURE() << llvm::toString(std::move(E));
    return false;
  }
  return Parsed;
}

class PchCacheWithSdk : public ::testing::Test {
protected:
  void SetUp() override {
    if (!findCudaPath("/usr/local/cuda", ""))
      GTEST_SKIP() << "no CUDA SDK in /usr/local/cuda";
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("distwar-pch", Root));
    llvm::sys::path::append(Cache, Root, "cache");
  }
  void TearDown() override {
    if (!Root.empty())
      llvm::sys::fs::remove_directories(Root);
  }
  llvm::SmallString<256> Root, Cache;
};

TEST_F(PchCacheWithSdk, AnEntryIsBuiltOnceAndReused) {
  ASSERT_TRUE(parseWithSdk(Cache));
  std::vector<std::string> Entries = filesEndingWith(Cache, ".pch");
  ASSERT_EQ(Entries.size(), 1u);
  EXPECT_EQ(filesEndingWith(Cache, ".inputs").size(), 1u);
  // Only this user may write the directory the cache creates.
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(Cache, Status));
  EXPECT_FALSE(Status.permissions() &
               (llvm::sys::fs::group_write | llvm::sys::fs::others_write));
  ASSERT_FALSE(llvm::sys::fs::status(Entries[0], Status));
  llvm::sys::TimePoint<> Built = Status.getLastModificationTime();

  ASSERT_TRUE(parseWithSdk(Cache));
  EXPECT_EQ(filesEndingWith(Cache, ".pch"), Entries);
  ASSERT_FALSE(llvm::sys::fs::status(Entries[0], Status));
  EXPECT_EQ(Status.getLastModificationTime(), Built);
}

TEST_F(PchCacheWithSdk, ADirectoryOthersMayWriteIsNotUsed) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Cache));
  ASSERT_FALSE(llvm::sys::fs::setPermissions(Cache, llvm::sys::fs::all_all));
  // The parse still succeeds, without the cache.
  ASSERT_TRUE(parseWithSdk(Cache));
  EXPECT_TRUE(filesEndingWith(Cache, ".pch").empty());
}

} // namespace
