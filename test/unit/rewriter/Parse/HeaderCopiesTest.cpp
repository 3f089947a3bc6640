//===- HeaderCopiesTest.cpp - where the copy of an allowed header goes ----===//
//
// The copy of a header sits where its #includes find it below the copies'
// directory: at the spelling of an #include through the include path, next
// to its includer's copy for a relative one, else at its path below the
// --edit-headers entry.
//
//===----------------------------------------------------------------------===//

#include "Parse/HeaderCopies.h"
#include "clang/Basic/FileManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "TempTree.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// root/src/k.cu, root/include/grad.h, root/include/sub/util.h, and the
/// #includes a test says, resolved as a parse would record them.
class HeaderCopiesTest : public TempTree {
protected:
  void SetUp() override {
    TempTree::SetUp();
    for (const char *F : {"src/k.cu", "include/grad.h", "include/sub/util.h"})
      write(F);
  }
  const clang::FileEntry *entry(llvm::StringRef Rel) {
    return &llvm::cantFail(Files.getFileRef(path(Rel))).getFileEntry();
  }
  /// `#include Spelled` in \p Includer reached \p Included.
  void include(llvm::StringRef Includer, llvm::StringRef Spelled,
               llvm::StringRef Included, bool RelativeToIncluder) {
    Inclusions.push_back({{Spelled.str(), path(Includer), RelativeToIncluder},
                          entry(Included),
                          entry(Includer)});
  }
  std::optional<std::string> copyOf(llvm::StringRef Entry,
                                    llvm::StringRef Rel) {
    HeaderFilter Filter = llvm::cantFail(HeaderFilter::create({path(Entry)}));
    HeaderCopies Copies(Filter, Inclusions);
    return Copies.pathOf(entry(Rel), path(Rel));
  }

  clang::FileManager Files{clang::FileSystemOptions()};
  std::vector<ParsedFile::ResolvedInclusion> Inclusions;
};

TEST_F(HeaderCopiesTest, ThroughTheIncludePathTheCopyTakesTheSpelling) {
  include("src/k.cu", "grad.h", "include/grad.h", false);
  EXPECT_EQ(copyOf("", "include/grad.h"), "grad.h");
  EXPECT_EQ(copyOf("include", "include/grad.h"), "grad.h");
}

TEST_F(HeaderCopiesTest, RelativeIncludesFollowTheirIncludersCopy) {
  include("src/k.cu", "grad.h", "include/grad.h", false);
  include("include/grad.h", "sub/util.h", "include/sub/util.h", true);
  EXPECT_EQ(copyOf("", "include/sub/util.h"), "sub/util.h");
}

TEST_F(HeaderCopiesTest, RelativeToTheMainFileKeepsThePathBelowTheEntry) {
  include("src/k.cu", "../include/grad.h", "include/grad.h", true);
  EXPECT_EQ(copyOf("", "include/grad.h"), "include/grad.h");
}

TEST_F(HeaderCopiesTest, TwoSpellingsKeepThePathBelowTheEntry) {
  include("src/k.cu", "grad.h", "include/grad.h", false);
  include("src/k.cu", "include/grad.h", "include/grad.h", false);
  EXPECT_EQ(copyOf("", "include/grad.h"), "include/grad.h");
}

TEST_F(HeaderCopiesTest, AHeaderTheFilterDoesNotAllowHasNoCopy) {
  include("src/k.cu", "grad.h", "include/grad.h", false);
  EXPECT_EQ(copyOf("src", "include/grad.h"), std::nullopt);
}

} // namespace
