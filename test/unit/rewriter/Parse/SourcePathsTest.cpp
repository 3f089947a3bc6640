//===- SourcePathsTest.cpp - the paths of the files a parse read ----------===//

#include "Parse/SourcePaths.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

TEST(SourcePaths, ANameWithoutARealPathIsMadeAbsolute) {
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  FS->addFile("/proj/src/k.cu", 0, llvm::MemoryBuffer::getMemBuffer("x"));
  clang::FileSystemOptions Opts;
  Opts.WorkingDir = "/proj/src";
  clang::FileManager FM(Opts, FS);
  llvm::Expected<clang::FileEntryRef> File = FM.getFileRef("./k.cu");
  ASSERT_TRUE(bool(File)) << llvm::toString(File.takeError());
  EXPECT_EQ(absoluteFilePath(FM, *File), "/proj/src/k.cu");
}

TEST(SourcePaths, AFileOnDiskGetsItsRealPath) {
  llvm::SmallString<256> Root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("distwar-sp", Root));
  llvm::SmallString<256> Dir(Root), Link(Root), File;
  llvm::sys::path::append(Dir, "real");
  llvm::sys::path::append(Link, "link");
  ASSERT_FALSE(llvm::sys::fs::create_directories(Dir));
  ASSERT_FALSE(llvm::sys::fs::create_link(Dir, Link));
  File = Dir;
  llvm::sys::path::append(File, "k.h");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC);
    OS << "int x;\n";
  }
  llvm::SmallString<256> Expected;
  ASSERT_FALSE(llvm::sys::fs::real_path(File, Expected));

  clang::FileManager FM{clang::FileSystemOptions()};
  llvm::SmallString<256> ThroughLink(Link);
  llvm::sys::path::append(ThroughLink, "..", "link", "k.h");
  llvm::Expected<clang::FileEntryRef> Ref =
      FM.getFileRef(ThroughLink, /*OpenFile=*/true);
  ASSERT_TRUE(bool(Ref)) << llvm::toString(Ref.takeError());
  clang::DiagnosticOptions DiagOpts;
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts);
  clang::SourceManager SM(Diags, FM);
  clang::FileID ID =
      SM.createFileID(*Ref, clang::SourceLocation(), clang::SrcMgr::C_User);
  EXPECT_EQ(absoluteFilePath(SM, ID), std::string(Expected));
  EXPECT_EQ(absoluteFilePath(FM, *Ref), std::string(Expected));
  // A buffer with no file behind it has no path.
  clang::FileID Buffer = SM.createFileID(llvm::MemoryBuffer::getMemBuffer("y"));
  EXPECT_EQ(absoluteFilePath(SM, Buffer), "");
  llvm::sys::fs::remove_directories(Root);
}

} // namespace
