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

/// Whether \p Out holds \p Text; the output when not.
::testing::AssertionResult has(const std::string &Out, llvm::StringRef Text) {
  if (llvm::StringRef(Out).contains(Text))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no `" << Text.str() << "` in:\n"
                                       << Out;
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
  EXPECT_TRUE(has(Out, "#line 1 \"t.cu\"\n"));
  EXPECT_TRUE(has(Out, "k(::distwar::TileQueue *distwar_queue, unsigned "
                       "distwar_tiles, dim3 distwar_grid, float *v, int n)"));
  EXPECT_TRUE(has(Out, "template <bool distwar_dynamic_tiles> __global__ void "
                       "k("));
  EXPECT_TRUE(has(Out, "::distwar::TileCursor<distwar_dynamic_tiles> "
                       "distwar_tile_cursor(distwar_queue, distwar_tiles);"));
  EXPECT_TRUE(has(Out, "const uint3 distwar_blockIdx = "
                       "distwar_tile_cursor.index(distwar_grid);"));
  EXPECT_TRUE(has(Out, "int i = distwar_blockIdx.x * blockDim.x"));
  EXPECT_TRUE(has(Out, "goto distwar_tile_end;"));
  EXPECT_TRUE(has(Out, "v[i] = distwar_grid.x;"));
  EXPECT_TRUE(has(Out, "::distwar::tileLaunch(k<true>, n / 32, 32, 0, 0);"));
  // The launch takes the instance of the mode its launch chose.
  EXPECT_TRUE(has(Out,
                  "auto *const distwar_kernel0 = distwar_launch0.dynamic() "
                  "? k<true> : k<false>;"));
  EXPECT_TRUE(has(Out, "distwar_kernel0<<<distwar_launch0.grid,"));
  EXPECT_TRUE(has(Out, "(distwar_launch0.queue, distwar_launch0.tiles, "
                       "distwar_launch0.original, v, n)"));
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
  EXPECT_TRUE(has(Out, "template <bool distwar_dynamic_tiles, int C, "
                       "typename T = float>"));
  EXPECT_TRUE(has(Out, "::distwar::tileLaunch(k<true, 3>, 4, 32, 0, 0);"));
  EXPECT_TRUE(has(Out, "distwar_launch0.dynamic() ? k<true, 3> : "
                       "k<false, 3>;"));
  EXPECT_TRUE(has(Out, " distwar_kernel0<<<"));
}

TEST(TileEdits, EmptyTemplateArgumentsTakeTheModeAlone) {
  std::string Out = balanced(R"cu(template <int C = 2>
__global__ void k(float *v) { v[blockIdx.x] = C; }
void run(float *v) { k<><<<4, 32>>>(v); }
)cu");
  EXPECT_TRUE(has(Out, "::distwar::tileLaunch(k<true>, 4, 32, 0, 0);"));
  EXPECT_TRUE(has(Out, "distwar_launch0.dynamic() ? k<true> : k<false>;"));
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
  EXPECT_TRUE(has(Out, "k<true><<<distwar_launch0.grid"));
  EXPECT_TRUE(has(Out, "TileCursor<distwar_dynamic_tiles>"));
}

TEST(TileEdits, AKernelOfCLinkageKeepsOneInstance) {
  std::string Out = balanced(R"cu(extern "C" __global__ void k(float *v) {
  v[blockIdx.x] = 0;
}
void run(float *v) { k<<<4, 32>>>(v); }
)cu");
  EXPECT_EQ(Out.find("template <bool"), std::string::npos) << Out;
  EXPECT_TRUE(has(Out, "::distwar::TileCursor<true> distwar_tile_cursor"));
  EXPECT_TRUE(has(Out, "::distwar::tileLaunch(k, 4, 32, 0, 0);"));
  EXPECT_TRUE(has(Out, " k<<<distwar_launch0.grid"));
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
    EXPECT_TRUE(has(HeaderOut, "#line 1 \"blur.cuh\"\n#pragma once"));
    EXPECT_TRUE(has(HeaderOut, "blur(::distwar::TileQueue *distwar_queue"));
    EXPECT_TRUE(has(HeaderOut, "v[distwar_blockIdx.x] = 0;"));
    std::string MainOut = llvm::cantFail(clang::tooling::applyAllReplacements(
        Main, (*Edits)[P.Ctx.getSourceManager().getMainFileID()]));
    EXPECT_TRUE(has(MainOut, "#line 1 \"k.cu\""));
    EXPECT_TRUE(
        has(MainOut, "::distwar::tileLaunch(blur<true>, 4, 32, 0, 0);"));
  });
}

} // namespace
