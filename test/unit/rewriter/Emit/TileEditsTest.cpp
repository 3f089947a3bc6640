//===- TileEditsTest.cpp - the text of --balance=tiles --------------------===//

#include "Emit/TileEdits.h"
#include "Decide/TileKernels.h"
#include "TestAST.h"
#include "TileTree.h"
#include "clang/Basic/SourceManager.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

OutputLayout compact() {
  OutputLayout Layout;
  Layout.FormatStyle = "none";
  return Layout;
}

/// \p Code with the tile edits of its plan applied, compact.
std::string balanced(llvm::StringRef Code) {
  Parsed P = parse(Code);
  const TilePlan Plan = planTiles(P.context());
  auto Presumed = [](clang::FileID, unsigned) {
    return PresumedLine{1, "\"t.cu\""};
  };
  auto TextOf = [&](clang::FileID) { return Code; };
  llvm::Expected<std::map<clang::FileID, clang::tooling::Replacements>> Edits =
      planTileEdits(P.context(), Plan, "/virtual/t.cu", compact(), TextOf,
                    Presumed);
  if (!Edits) {
    ADD_FAILURE() << llvm::toString(Edits.takeError());
    return "";
  }
  if (Edits->empty())
    return Code.str();
  EXPECT_EQ(Edits->size(), 1u);
  EXPECT_EQ(Edits->begin()->first,
            P.context().getSourceManager().getMainFileID());
  return llvm::cantFail(
      clang::tooling::applyAllReplacements(Code, Edits->begin()->second));
}

const char *const Kernel = R"cu(__global__ void k(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  v[i] = gridDim.x;
}
void run(float *v, int n) {
  k<<<n / 32,
      32>>>(v, n);
}
)cu";

TEST(TileEdits, TheKernelRunsInTheTileLoopAndItsLaunchIsSized) {
  std::string Out = balanced(Kernel);
  EXPECT_EQ(Out.rfind("#include <distwar/tiles.cuh>", 0), 0u) << Out;
  EXPECT_NE(Out.find("#line 1 \"t.cu\"\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("k(::distwar::TileQueue *distwar_queue, unsigned "
                     "distwar_tiles, dim3 distwar_grid, float *v, int n)"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("template <bool distwar_dynamic_tiles> __global__ void "
                     "k("),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("::distwar::TileCursor<distwar_dynamic_tiles> "
                     "distwar_tile_cursor(distwar_queue, distwar_tiles);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("const uint3 distwar_blockIdx = "
                     "distwar_tile_cursor.index(distwar_grid);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("int i = distwar_blockIdx.x * blockDim.x"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("goto distwar_tile_end;"), std::string::npos) << Out;
  EXPECT_NE(Out.find("v[i] = distwar_grid.x;"), std::string::npos) << Out;
  EXPECT_NE(Out.find("::distwar::tileLaunch(k<true>, n / 32, 32, 0, 0);"),
            std::string::npos)
      << Out;
  // The launch takes the instance of the mode its launch chose.
  EXPECT_NE(Out.find("auto *const distwar_kernel0 = distwar_launch0.dynamic() "
                     "? k<true> : k<false>;"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("distwar_kernel0<<<distwar_launch0.grid,"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("(distwar_launch0.queue, distwar_launch0.tiles, "
                     "distwar_launch0.original, v, n)"),
            std::string::npos)
      << Out;
}

TEST(TileEdits, TheCompactFormMovesNoLine) {
  // The prologue's two lines, and nothing else: the launch's config spans
  // two lines and keeps both.
  std::string Out = balanced(Kernel);
  EXPECT_EQ(llvm::StringRef(Out).count('\n'),
            llvm::StringRef(Kernel).count('\n') + 2)
      << Out;
}

TEST(TileEdits, ATemplateKernelTakesTheModeFirst) {
  std::string Out = balanced(R"cu(template <int C, typename T = float>
__global__ void k(T *v) { v[blockIdx.x * C] = 0; }
void run(float *v) { k<3><<<4, 32>>>(v); }
)cu");
  EXPECT_NE(Out.find("template <bool distwar_dynamic_tiles, int C, "
                     "typename T = float>"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("::distwar::tileLaunch(k<true, 3>, 4, 32, 0, 0);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("distwar_launch0.dynamic() ? k<true, 3> : "
                     "k<false, 3>;"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find(" distwar_kernel0<<<"), std::string::npos) << Out;
}

TEST(TileEdits, ALaunchTakingADefaultArgumentRunsTheDynamicInstance) {
  // A pointer to the kernel has no default arguments: the launch names
  // k<true>, whose loop runs one tile per block when given no pool.
  std::string Out = balanced(R"cu(__global__ void k(float *v, int n = 1) {
  v[blockIdx.x] = n;
}
void run(float *v) { k<<<4, 32>>>(v); }
)cu");
  EXPECT_EQ(Out.find("distwar_kernel0"), std::string::npos) << Out;
  EXPECT_NE(Out.find("k<true><<<distwar_launch0.grid"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find("TileCursor<distwar_dynamic_tiles>"), std::string::npos)
      << Out;
}

TEST(TileEdits, AKernelOfCLinkageKeepsOneInstance) {
  std::string Out = balanced(R"cu(extern "C" __global__ void k(float *v) {
  v[blockIdx.x] = 0;
}
void run(float *v) { k<<<4, 32>>>(v); }
)cu");
  EXPECT_EQ(Out.find("template <bool"), std::string::npos) << Out;
  EXPECT_NE(Out.find("::distwar::TileCursor<true> distwar_tile_cursor"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("::distwar::tileLaunch(k, 4, 32, 0, 0);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find(" k<<<distwar_launch0.grid"), std::string::npos) << Out;
}

TEST(TileEdits, NothingBalancedNoEdit) {
  const char *Code = "__global__ void k(float *v) { v[threadIdx.x] = 0; }\n"
                     "void run(float *v) { k<<<1, 32>>>(v); }\n";
  EXPECT_EQ(balanced(Code), Code);
}

class TileEditsTree : public TileTree {};

TEST_F(TileEditsTree, AHeadersKernelIsEditedThereItsLaunchWhereItIs) {
  const char *Header = "#pragma once\n"
                       "__global__ void blur(float *v) {\n"
                       "  v[blockIdx.x] = 0;\n"
                       "}\n";
  const char *Main = "#include \"blur.cuh\"\n"
                     "void run(float *v) { blur<<<4, 32>>>(v); }\n";
  write("include/blur.cuh", Header);
  parseTree(Main, [&](ParsedFile &P, const TileFiles &Files) {
    const TilePlan Plan = planTiles(P.Ctx, Files);
    auto Presumed = [&](clang::FileID File, unsigned) {
      return PresumedLine{1, File == P.Ctx.getSourceManager().getMainFileID()
                                 ? "\"k.cu\""
                                 : "\"blur.cuh\""};
    };
    auto TextOf = [&](clang::FileID File) { return P.OriginalText(File); };
    llvm::Expected<std::map<clang::FileID, clang::tooling::Replacements>>
        Edits = planTileEdits(P.Ctx, Plan, path("src/k.cu"), compact(), TextOf,
                              Presumed);
    ASSERT_TRUE(bool(Edits)) << llvm::toString(Edits.takeError());
    ASSERT_EQ(Edits->size(), 2u);
    clang::FileID Blur = fileOf(P, "include/blur.cuh");
    const clang::tooling::Replacements &InHeader = (*Edits)[Blur];
    ASSERT_FALSE(InHeader.empty());
    EXPECT_EQ(InHeader.begin()->getFilePath(), path("include/blur.cuh"));
    std::string HeaderOut =
        llvm::cantFail(clang::tooling::applyAllReplacements(Header, InHeader));
    EXPECT_TRUE(
        llvm::StringRef(HeaderOut).starts_with("#include <distwar/tiles.cuh>"))
        << HeaderOut;
    EXPECT_NE(HeaderOut.find("#line 1 \"blur.cuh\"\n#pragma once"),
              std::string::npos)
        << HeaderOut;
    EXPECT_NE(HeaderOut.find("blur(::distwar::TileQueue *distwar_queue"),
              std::string::npos)
        << HeaderOut;
    EXPECT_NE(HeaderOut.find("v[distwar_blockIdx.x] = 0;"), std::string::npos)
        << HeaderOut;
    std::string MainOut = llvm::cantFail(clang::tooling::applyAllReplacements(
        Main, (*Edits)[P.Ctx.getSourceManager().getMainFileID()]));
    EXPECT_NE(MainOut.find("#line 1 \"k.cu\""), std::string::npos) << MainOut;
    EXPECT_NE(MainOut.find("::distwar::tileLaunch(blur<true>, 4, 32, 0, 0);"),
              std::string::npos)
        << MainOut;
  });
}

} // namespace
