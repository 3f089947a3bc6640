//===- HeaderFilterTest.cpp - which included files may be edited ----------===//

#include "distwar-rewrite/HeaderFilter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "TempTree.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// A temporary tree: root/include/render/grad.h, root/include/top.h,
/// root/vendor/v.h, root/includex/x.h.
class HeaderFilterTest : public TempTree {
protected:
  void SetUp() override {
    TempTree::SetUp();
    for (const char *F : {"include/render/grad.h", "include/top.h",
                          "vendor/v.h", "includex/x.h"})
      write(F);
  }
};

TEST_F(HeaderFilterTest, DirectoriesGivePathsBelowThem) {
  auto F = HeaderFilter::create({path("include")});
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->relativePath(path("include/render/grad.h")), "render/grad.h");
  EXPECT_EQ(F->relativePath(path("include/top.h")), "top.h");
  EXPECT_EQ(F->relativePath(path("vendor/v.h")), std::nullopt);
  // A sibling whose name starts with the directory's is not below it.
  EXPECT_EQ(F->relativePath(path("includex/x.h")), std::nullopt);
  // Dots and '..' in the asked path resolve to the same file.
  EXPECT_EQ(F->relativePath(path("include/render/../top.h")), "top.h");
}

TEST_F(HeaderFilterTest, InnermostDirectoryWinsWhateverTheOrder) {
  for (bool Reversed : {false, true}) {
    std::vector<std::string> Entries = {path("include"),
                                        path("include/render")};
    if (Reversed)
      std::swap(Entries[0], Entries[1]);
    auto F = HeaderFilter::create(Entries);
    ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
    EXPECT_EQ(F->relativePath(path("include/render/grad.h")), "grad.h");
    EXPECT_EQ(F->relativePath(path("include/top.h")), "top.h");
  }
}

TEST_F(HeaderFilterTest, FilesGiveTheirNameOnly) {
  auto F = HeaderFilter::create({path("vendor/v.h")});
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->relativePath(path("vendor/v.h")), "v.h");
  EXPECT_EQ(F->relativePath(path("include/top.h")), std::nullopt);
  EXPECT_FALSE(F->empty());
}

TEST_F(HeaderFilterTest, MissingEntryIsAnError) {
  auto F = HeaderFilter::create({path("include"), path("nope")});
  ASSERT_FALSE(bool(F));
  std::string Message = llvm::toString(F.takeError());
  EXPECT_NE(Message.find("--edit-headers: cannot find"), std::string::npos);
  EXPECT_NE(Message.find("nope"), std::string::npos);
}

TEST_F(HeaderFilterTest, NoEntriesAllowNothing) {
  auto F = HeaderFilter::create({});
  ASSERT_TRUE(bool(F));
  EXPECT_TRUE(F->empty());
  EXPECT_EQ(F->relativePath(path("include/top.h")), std::nullopt);
}

} // namespace
