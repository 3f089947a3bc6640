//===- PathsTest.cpp - the one normal form of the tool's paths ------------===//
//
// Paths are compared as strings, so two spellings of one file must come out
// the same.
//
//===----------------------------------------------------------------------===//

#include "distwar-rewrite/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

TEST(Paths, RelativeToTheBaseWithoutDots) {
  EXPECT_EQ(absolutePath("src/./k.cu", "/work/proj"), "/work/proj/src/k.cu");
  EXPECT_EQ(absolutePath("../inc/../k.h", "/work/proj/src"), "/work/proj/k.h");
  EXPECT_EQ(absolutePath("k.h", "/work/proj/./src/.."), "/work/proj/k.h");
}

TEST(Paths, AnAbsolutePathIgnoresTheBase) {
  EXPECT_EQ(absolutePath("/usr/./include/../lib/x.h", "/work/proj"),
            "/usr/lib/x.h");
}

TEST(Paths, WithoutABaseTheCurrentDirectory) {
  llvm::SmallString<256> Expected;
  ASSERT_FALSE(llvm::sys::fs::current_path(Expected));
  llvm::sys::path::append(Expected, "k.cu");
  EXPECT_EQ(absolutePath("src/../k.cu"), Expected.str());
  EXPECT_EQ(absolutePath("./k.cu", ""), Expected.str());
}

} // namespace
