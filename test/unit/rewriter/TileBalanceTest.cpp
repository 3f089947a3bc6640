//===- TileBalanceTest.cpp - the --balance=tiles pass ---------------------===//

#include "TileBalance.h"
#include "TempTree.h"
#include "TestAST.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

OutputLayout balancedLayout() {
  OutputLayout Layout;
  Layout.FormatStyle = "none";
  Layout.Balance = BlockBalance::Tiles;
  return Layout;
}

TEST(TileBalance, ClangsErrorsKeepOnlyTheKernelsTheyReach) {
  const char *Code = R"cu(__device__ float f(float a, float b) { return a + b; }
__device__ double f(double a, double b) { return a * b; }
__global__ void broken(float *v) { v[blockIdx.x] = f(v[0], 2.0); }
__global__ void sound(float *v) { v[blockIdx.x] = 1; }
void run(float *v) {
  broken<<<4, 32>>>(v);
  sound<<<4, 32>>>(v);
}
)cu";
  llvm::Expected<RewriteResult> R =
      rewriteSource("/virtual/t.cu", Code, FrontEnd(hermeticArgs()),
                    Variant::Auto, nullptr, balancedLayout());
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Report.Kernels.size(), 2u);
  EXPECT_EQ(R->Report.Kernels[0].Why.Code, Reason::TileParseError);
  EXPECT_EQ(R->Report.Kernels[1].Why.Code, Reason::None);
  EXPECT_TRUE(R->Report.Changed);
  EXPECT_TRUE(llvm::StringRef(R->Output).contains(
      "::distwar::tileLaunch(sound<true>, 4, 32, 0, 0)"))
      << R->Output;
  EXPECT_TRUE(llvm::StringRef(R->Output).contains("  broken<<<4, 32>>>(v);"))
      << R->Output;
  // One warning: the first error, and what it cost.
  EXPECT_TRUE(llvm::StringRef(R->Warning).starts_with("/virtual/t.cu:3:"))
      << R->Warning;
  EXPECT_TRUE(llvm::StringRef(R->Warning)
                  .ends_with("(--balance=tiles: 1 of 2 kernel(s) not "
                             "balanced, DW0068 tile-parse-error)"))
      << R->Warning;
  ASSERT_TRUE(R->Report.ParseError);
  EXPECT_EQ(R->Report.ParseError->Line, 3u);
}

class TileBalanceTree : public TempTree {};

TEST_F(TileBalanceTree, AnAllowedHeadersKernelIsBalancedInItsCopy) {
  write("include/blur.cuh", "#pragma once\n#include \"weights.cuh\"\n"
                            "__global__ void blur(float *v) {\n"
                            "  v[blockIdx.x] *= kWeight;\n"
                            "}\n");
  write("include/weights.cuh", "#pragma once\nconstexpr float kWeight = 2;\n");
  const char *Code = "#include \"blur.cuh\"\n"
                     "void run(float *v) { blur<<<4, 32>>>(v); }\n";
  write("src/k.cu", Code);
  HeaderFilter Filter = llvm::cantFail(HeaderFilter::create({path("include")}));
  std::vector<std::string> Args = hermeticArgs();
  Args.push_back("-I" + path("include"));
  llvm::Expected<RewriteResult> R =
      rewriteSource(path("src/k.cu"), Code, FrontEnd(Args), Variant::Auto,
                    &Filter, balancedLayout());
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Report.Kernels.size(), 1u);
  EXPECT_EQ(R->Report.Kernels[0].Why.Code, Reason::None);
  EXPECT_EQ(R->Report.Kernels[0].File, path("include/blur.cuh"));
  EXPECT_TRUE(llvm::StringRef(R->Output).contains(
      "::distwar::tileLaunch(blur<true>, 4, 32, 0, 0)"))
      << R->Output;
  // The edited copy first, then its neighbour as it is.
  ASSERT_EQ(R->Headers.size(), 2u);
  const HeaderOutput &Blur = R->Headers[0];
  EXPECT_TRUE(Blur.Edited);
  EXPECT_EQ(Blur.Path, path("include/blur.cuh"));
  EXPECT_EQ(Blur.RelativePath, "blur.cuh");
  EXPECT_EQ(Blur.FirstLine, 3u);
  ASSERT_EQ(Blur.IncludedAs.size(), 1u);
  EXPECT_EQ(Blur.IncludedAs[0].Spelled, "blur.cuh");
  EXPECT_TRUE(
      llvm::StringRef(Blur.Output).starts_with("#include <distwar/tiles.cuh>"))
      << Blur.Output;
  EXPECT_TRUE(llvm::StringRef(Blur.Output)
                  .contains("blur(::distwar::TileQueue *distwar_queue"))
      << Blur.Output;
  EXPECT_FALSE(Blur.Edits.empty());
  EXPECT_FALSE(R->Headers[1].Edited);
  EXPECT_EQ(R->Headers[1].Path, path("include/weights.cuh"));
  EXPECT_EQ(R->Report.EditedHeaders,
            std::vector<std::string>{path("include/blur.cuh")});
}

} // namespace
