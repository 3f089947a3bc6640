//===- TileEditsTest.cpp - the text of --balance=tiles --------------------===//

#include "Emit/TileEdits.h"
#include "Decide/TileKernels.h"
#include "TestAST.h"
#include "clang/Basic/SourceManager.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// \p Code with the tile edits of its plan applied, compact.
std::string balanced(llvm::StringRef Code) {
  Parsed P = parse(Code);
  const TilePlan Plan = planTiles(P.context());
  OutputLayout Layout;
  Layout.FormatStyle = "none";
  auto Presumed = [](unsigned) { return PresumedLine{1, "\"t.cu\""}; };
  llvm::Expected<clang::tooling::Replacements> Edits =
      planTileEdits(P.context(), Plan, "/virtual/t.cu", Code, Layout, Presumed);
  if (!Edits) {
    ADD_FAILURE() << llvm::toString(Edits.takeError());
    return "";
  }
  return llvm::cantFail(clang::tooling::applyAllReplacements(Code, *Edits));
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
  EXPECT_NE(Out.find("::distwar::TileCursor distwar_tile_cursor(distwar_queue, "
                     "distwar_tiles);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("int i = distwar_blockIdx.x * blockDim.x"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("goto distwar_tile_end;"), std::string::npos) << Out;
  EXPECT_NE(Out.find("v[i] = distwar_grid.x;"), std::string::npos) << Out;
  EXPECT_NE(Out.find("::distwar::tileLaunch(k, n / 32, 32, 0, 0);"),
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

TEST(TileEdits, NothingBalancedNoEdit) {
  const char *Code = "__global__ void k(float *v) { v[threadIdx.x] = 0; }\n"
                     "void run(float *v) { k<<<1, 32>>>(v); }\n";
  EXPECT_EQ(balanced(Code), Code);
}

} // namespace
