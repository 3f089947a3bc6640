//===- TileFilesTest.cpp - the files --balance=tiles may write ------------===//

#include "Decide/TileFiles.h"
#include "TileTree.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

class TileFilesTest : public TileTree {};

TEST_F(TileFilesTest, TheMainFileAndTheAllowedHeadersEnteredOnce) {
  write("include/render/blur.cuh", "#pragma once\n");
  write("include/twice.h", "// no guard\n");
  write("vendor/lib.cuh", "#pragma once\n");
  parseTree("#include \"render/blur.cuh\"\n"
            "#include \"lib.cuh\"\n"
            "namespace a {\n#include \"twice.h\"\n}\n"
            "namespace b {\n#include \"twice.h\"\n}\n",
            [&](ParsedFile &P, const TileFiles &Files) {
              const clang::SourceManager &SM = P.Ctx.getSourceManager();
              EXPECT_TRUE(Files.writable(SM.getMainFileID()));
              clang::FileID Blur = fileOf(P, "include/render/blur.cuh");
              EXPECT_TRUE(Files.writable(Blur));
              EXPECT_EQ(Files.whyNot(Blur).Code, Reason::None);
              // Where its #include finds it below the copies' directory.
              EXPECT_EQ(Files.copyPath(Blur), "render/blur.cuh");
              clang::FileID Lib = fileOf(P, "vendor/lib.cuh");
              EXPECT_FALSE(Files.writable(Lib));
              EXPECT_TRUE(Files.isUserFile(Lib));
              TileFileRefusal Not = Files.whyNot(Lib);
              EXPECT_EQ(Not.Code, Reason::TileLaunch);
              EXPECT_EQ(Not.What, "a header that no --edit-headers entry "
                                  "names");
              clang::FileID Twice = fileOf(P, "include/twice.h");
              EXPECT_FALSE(Files.writable(Twice));
              EXPECT_EQ(Files.whyNot(Twice).Code, Reason::HeaderEnteredTwice);
            });
}

TEST_F(TileFilesTest, AHeaderNotReadAsTheBatchingLeftItIsNotWritten) {
  write("include/blur.cuh", "#pragma once\n");
  parseTree("#include \"blur.cuh\"\n", [&](ParsedFile &P, const TileFiles &) {
    clang::FileID Blur = fileOf(P, "include/blur.cuh");
    HeaderFilter Filter =
        llvm::cantFail(HeaderFilter::create({path("include")}));
    TileFiles Files(P.Ctx.getSourceManager(), &Filter, P.Inclusions, {Blur});
    EXPECT_FALSE(Files.writable(Blur));
    EXPECT_EQ(Files.whyNot(Blur).Code, Reason::TileLaunch);
  });
}

TEST_F(TileFilesTest, WithoutAFilterOnlyTheMainFile) {
  write("include/blur.cuh", "#pragma once\n");
  parseTree("#include \"blur.cuh\"\n", [&](ParsedFile &P, const TileFiles &) {
    const clang::SourceManager &SM = P.Ctx.getSourceManager();
    TileFiles Files(SM, nullptr, P.Inclusions);
    EXPECT_TRUE(Files.writable(SM.getMainFileID()));
    EXPECT_FALSE(Files.writable(fileOf(P, "include/blur.cuh")));
    // No file: a built-in buffer, nobody's code.
    EXPECT_FALSE(Files.isUserFile(clang::FileID()));
  });
}

} // namespace
