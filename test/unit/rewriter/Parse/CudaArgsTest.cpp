//===- CudaArgsTest.cpp - front-end flags for CUDA device parsing ---------===//

#include "distwar-rewrite/CudaArgs.h"
#include "Parse/FrontEndFiles.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "TempTree.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

using Flags = std::vector<std::string>;

/// stripCompileCommand's result, or a failure with its error.
Flags strippedFlags(const Flags &Command, llvm::StringRef File,
                    std::string &Arch, llvm::StringRef Directory = "") {
  llvm::Expected<Flags> Out =
      stripCompileCommand(Command, File, Arch, Directory);
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return {};
  }
  return *Out;
}

/// A temporary directory removed with the test.
class CudaArgsTest : public TempTree {};

TEST(CudaArgs, StripsCompilerInputOutputAndNvccOnlyFlags) {
  std::string Arch = "sm_90";
  Flags Out =
      strippedFlags({"/usr/local/cuda/bin/nvcc", "-c", "src/k.cu", "-o", "k.o",
                     "-DFOO=1", "-Iinclude", "-G", "-lineinfo",
                     "--expt-relaxed-constexpr", "-Xcompiler", "-fPIC", "-O3"},
                    "src/k.cu", Arch);
  EXPECT_EQ(Out, (Flags{"-DFOO=1", "-Iinclude", "-O3"}));
  EXPECT_EQ(Arch, "sm_90"); // no arch flag: unchanged
}

TEST(CudaArgs, TranslatesNvccSpellings) {
  std::string Arch;
  Flags Out = strippedFlags({"nvcc", "-isystem=/opt/inc", "--std", "c++17",
                             "--use_fast_math", "-Werror", "all-warnings",
                             "-Werror=reorder", "k.cu"},
                            "k.cu", Arch);
  EXPECT_EQ(Out, (Flags{"-isystem", "/opt/inc", "-std=c++17",
                        "-D__USE_FAST_MATH__"}));
  // Clang's own -Werror (no nvcc warning kind after it) stays.
  Out = strippedFlags({"clang++", "-Werror", "-Wall", "k.cu"}, "k.cu", Arch);
  EXPECT_EQ(Out, (Flags{"-Werror", "-Wall"}));
  Out = strippedFlags({"nvcc", "--std=c++20", "k.cu"}, "k.cu", Arch);
  EXPECT_EQ(Out, (Flags{"-std=c++20"}));
}

TEST(CudaArgs, TakesTheGpuArchitecture) {
  std::string Arch = "sm_90";
  strippedFlags({"nvcc", "-arch=sm_80", "k.cu"}, "k.cu", Arch);
  EXPECT_EQ(Arch, "sm_80");
  strippedFlags({"nvcc", "--gpu-architecture", "compute_70", "k.cu"}, "k.cu",
                Arch);
  EXPECT_EQ(Arch, "sm_70");
  Flags Out = strippedFlags(
      {"nvcc", "-gencode", "arch=compute_75,code=sm_75", "-DX", "k.cu"}, "k.cu",
      Arch);
  EXPECT_EQ(Arch, "sm_75");
  EXPECT_EQ(Out, (Flags{"-DX"})); // the gencode value is not a flag
  // A value that names no architecture leaves it alone.
  strippedFlags({"nvcc", "-arch=native", "k.cu"}, "k.cu", Arch);
  EXPECT_EQ(Arch, "sm_75");
}

TEST_F(CudaArgsTest, SplicesOptionsFilesRelativeToTheDirectory) {
  write("opts.txt", "-DFROM_FILE \"-DQUOTED=a b\"\n-Iinc2\n");
  write("more.rsp", "-DFROM_RSP");
  std::string Arch;
  Flags Out = strippedFlags(
      {"nvcc", "--options-file", "opts.txt", "@more.rsp", "-DLAST", "k.cu"},
      "k.cu", Arch, Root);
  EXPECT_EQ(Out, (Flags{"-DFROM_FILE", "-DQUOTED=a b", "-Iinc2", "-DFROM_RSP",
                        "-DLAST"}));
}

TEST_F(CudaArgsTest, AMissingOptionsFileIsAnError) {
  std::string Arch;
  llvm::Expected<Flags> Out = stripCompileCommand(
      {"nvcc", "-optf", "absent.txt", "k.cu"}, "k.cu", Arch, Root);
  ASSERT_FALSE(bool(Out));
  std::string Message = llvm::toString(Out.takeError());
  EXPECT_NE(Message.find("cannot read options file"), std::string::npos)
      << Message;
  EXPECT_NE(Message.find("absent.txt"), std::string::npos) << Message;
}

TEST_F(CudaArgsTest, OptionsFilesThatIncludeThemselvesStop) {
  write("loop.txt", "--options-file loop.txt");
  std::string Arch;
  llvm::Expected<Flags> Out = stripCompileCommand(
      {"nvcc", "--options-file=loop.txt", "k.cu"}, "k.cu", Arch, Root);
  ASSERT_FALSE(bool(Out));
  EXPECT_NE(llvm::toString(Out.takeError()).find("nest more than 16"),
            std::string::npos);
}

TEST_F(CudaArgsTest, FindCudaPathPrefersTheExplicitSdk) {
  write("sdk/include/cuda_runtime.h", "");
  write("other/targets/x86_64-linux/include/cuda_runtime.h", "");
  llvm::Expected<std::string> Found = findCudaPath(path("sdk"), path("other"));
  ASSERT_TRUE(bool(Found)) << llvm::toString(Found.takeError());
  EXPECT_EQ(*Found, path("sdk"));
  // Without --cuda-path, CUDA_PATH (the targets/ layout counts too).
  Found = findCudaPath("", path("other"));
  ASSERT_TRUE(bool(Found)) << llvm::toString(Found.takeError());
  EXPECT_EQ(*Found, path("other"));
}

TEST_F(CudaArgsTest, AnExplicitDirectoryWithoutAnSdkIsAnError) {
  write("empty/readme", "");
  llvm::Expected<std::string> Found = findCudaPath(path("empty"), "");
  ASSERT_FALSE(bool(Found));
  std::string Message = llvm::toString(Found.takeError());
  EXPECT_NE(Message.find("is not a CUDA SDK"), std::string::npos) << Message;
}

TEST_F(CudaArgsTest, CcclDirectoryOnlyWhereTheSdkHasOne) {
  write("sdk/include/cccl/cuda/std/version", "");
  write("old/include/cuda_runtime.h", "");
  EXPECT_EQ(cudaCcclIncludeDir(path("sdk")), path("sdk/include/cccl"));
  EXPECT_EQ(cudaCcclIncludeDir(path("old")), "");
}

TEST(CudaArgs, FrontEndArgsWithoutAnSdk) {
  CudaOptions Options;
  Options.NoCudaSdk = true;
  Options.GpuArch = "sm_80";
  Options.ResourceDir = "/res";
  Flags Args = frontEndArgs(Options, {"-DUSER", "-Iuser"});
  EXPECT_TRUE(llvm::is_contained(Args, "--cuda-device-only"));
  EXPECT_TRUE(llvm::is_contained(Args, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(llvm::is_contained(Args, "-resource-dir=/res"));
  EXPECT_TRUE(llvm::is_contained(Args, "-nocudainc"));
  EXPECT_FALSE(llvm::any_of(
      Args, [](llvm::StringRef A) { return A.starts_with("--cuda-path"); }));
  // The nvcc declarations come with an SDK only.
  EXPECT_FALSE(llvm::is_contained(Args, frontEndBeforeWrapper()));
  // The user's flags come last, in order.
  ASSERT_GE(Args.size(), 2u);
  EXPECT_EQ(Args[Args.size() - 2], "-DUSER");
  EXPECT_EQ(Args.back(), "-Iuser");
}

TEST(CudaArgs, FrontEndArgsWithAnSdkIncludeTheNvccDeclarations) {
  CudaOptions Options;
  Options.CudaPath = "/nonexistent-sdk";
  Options.RuntimeIncludeDir = "/rt";
  Flags Args = frontEndArgs(Options, {});
  EXPECT_TRUE(llvm::is_contained(Args, "--cuda-path=/nonexistent-sdk"));
  EXPECT_FALSE(llvm::is_contained(Args, "-nocudainc"));
  auto Before = llvm::find(Args, frontEndBeforeWrapper());
  ASSERT_NE(Before, Args.end());
  EXPECT_EQ(*std::prev(Before), "-include");
  EXPECT_EQ(Args.back(), "-isystem/rt");
}

TEST(CudaArgs, FrontEndFilesAreRecognised) {
  EXPECT_TRUE(isFrontEndFile(frontEndBeforeWrapper()));
  EXPECT_TRUE(isFrontEndFile(frontEndPchMain()));
  EXPECT_TRUE(isFrontEndFile(frontEndHoistedMain("#include <a.h>\n")));
  EXPECT_FALSE(isFrontEndFile("/work/k.cu"));
  EXPECT_NE(frontEndPchMain(), frontEndHoistedMain("#include <a.h>\n"));
  // One per text: a parse may try two.
  EXPECT_NE(frontEndHoistedMain("#include <a.h>\n"),
            frontEndHoistedMain("#include <b.h>\n"));
  EXPECT_NE(frontEndFileText().find("__throw_out_of_range"), std::string::npos);
}

} // namespace
