//===- HoistedHeadersTest.cpp - includes that go into the CUDA PCH --------===//
//
// Which of a file's #include lines name CUDA SDK headers that may go into
// the precompiled header.
//
//===----------------------------------------------------------------------===//

#include "Parse/HoistedHeaders.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

/// A CUDA SDK (system directory) and a user directory in memory.
struct FakeSearch {
  FakeSearch() {
    for (const char *F :
         {"/sdk/include/cuda_runtime.h", "/sdk/include/cooperative_groups.h",
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
  EXPECT_TRUE(
      S.of("#ifdef CG\n#include <cooperative_groups.h>\n#endif\n").empty());
  EXPECT_TRUE(
      S.of("namespace n {\n#include <cooperative_groups.h>\n}\n").empty());
  // A user directory holds one with the same name: not the SDK's.
  EXPECT_TRUE(S.of("#include <cooperative_groups/reduce.h>\n").empty());
  // A directive's braces are not the file's.
  EXPECT_EQ(S.of("#define OPEN {\n#include <cooperative_groups.h>\n"),
            std::vector<std::string>{"cooperative_groups.h"});
}

} // namespace
