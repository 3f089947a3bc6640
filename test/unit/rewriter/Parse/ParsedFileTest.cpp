//===- ParsedFileTest.cpp - one device-only parse of one file -------------===//

#include "Parse/ParsedFile.h"
#include "TestAST.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

bool readsFileNamed(llvm::ArrayRef<std::string> Files, llvm::StringRef Name) {
  return llvm::any_of(Files, [&](const std::string &F) {
    return llvm::sys::path::filename(F) == Name;
  });
}

TEST(ParsedFile, HandsTheAstAndTheFilesReadToTheBody) {
  bool Called = false;
  llvm::Error E = parseFile(
      "/virtual/pf.cu",
      "__global__ void k(float *g, float v) { atomicAdd(&g[0], v); }\n",
      FrontEnd(hermeticArgs()), [&](ParsedFile &P) {
        Called = true;
        EXPECT_FALSE(P.HasErrors) << P.DiagnosticText;
        EXPECT_TRUE(function(P.Ctx, "k"));
        EXPECT_TRUE(readsFileNamed(P.FilesRead, "pf.cu"));
        EXPECT_TRUE(readsFileNamed(P.FilesRead, "cuda_shim.h"));
        // The user's bytes, as given.
        EXPECT_TRUE(P.OriginalText(P.Ctx.getSourceManager().getMainFileID())
                        .starts_with("__global__ void k"));
      });
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_TRUE(Called);
}

TEST(ParsedFile, AnErrorStillCallsTheBodyWithTheFirstErrorSummarised) {
  bool Called = false;
  llvm::Error E =
      parseFile("/virtual/bad.cu",
                "__global__ void k(float *g) {\n  g[0] = not_declared;\n}\n",
                FrontEnd(hermeticArgs()), [&](ParsedFile &P) {
                  Called = true;
                  EXPECT_TRUE(P.HasErrors);
                  EXPECT_TRUE(llvm::StringRef(P.DiagnosticText)
                                  .starts_with("/virtual/bad.cu:2:10: Clang "
                                               "cannot parse this: use of "
                                               "undeclared identifier"))
                      << P.DiagnosticText;
                });
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_TRUE(Called);
}

TEST(ParsedFile, AnOverlayIsReadInPlaceOfItsFile) {
  // The header exists only in memory: the parse finds it through -I as it
  // would find it on the disk, and its text is the overlay's.
  std::vector<std::string> Args = hermeticArgs();
  Args.push_back("-I/virtual/include");
  std::vector<FileOverlay> Overlays = {
      {"/virtual/include/k.cuh",
       "__global__ void fromOverlay(float *g) { g[0] = 1; }\n"}};
  bool Called = false;
  llvm::Error E = parseFile(
      "/virtual/pf.cu",
      "#include \"k.cuh\"\nvoid run(float *g) { fromOverlay<<<1, 1>>>(g); }\n",
      FrontEnd(Args),
      [&](ParsedFile &P) {
        Called = true;
        EXPECT_FALSE(P.HasErrors) << P.DiagnosticText;
        const clang::FunctionDecl *K = function(P.Ctx, "fromOverlay");
        ASSERT_TRUE(K);
        const clang::SourceManager &SM = P.Ctx.getSourceManager();
        clang::FileID Header = SM.getFileID(K->getLocation());
        EXPECT_EQ(P.OriginalText(Header), Overlays[0].Text);
      },
      Overlays);
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_TRUE(Called);
}

TEST(ParsedFile, FlagsTheDriverRejectsAreAnError) {
  std::vector<std::string> Args = hermeticArgs();
  Args.push_back("-std=c++99x");
  bool Called = false;
  llvm::Error E = parseFile("/virtual/pf.cu", "int x;\n", FrontEnd(Args),
                            [&](ParsedFile &) { Called = true; });
  ASSERT_TRUE(bool(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("invalid value 'c++99x'"), std::string::npos)
      << Message;
  EXPECT_FALSE(Called);
}

TEST(ParsedFile, MentionsAtomicsByTokenNotBySubstring) {
  EXPECT_TRUE(mentionsAtomics("atomicAdd(&g[i], v);"));
  EXPECT_TRUE(mentionsAtomics("gpuAtomicAdd(p, v);"));
  EXPECT_TRUE(mentionsAtomics("ATOMIC_ADD(p, v);"));
  EXPECT_TRUE(mentionsAtomics("atomicSub(p, 1);"));
  EXPECT_FALSE(mentionsAtomics("g[i] += v; atomicMax(p, v);"));
  // Comments and string literals are not tokens that call anything.
  EXPECT_FALSE(mentionsAtomics("// atomicAdd here\nconst char *s = "
                               "\"atomicAdd\";"));
}

/// A temporary directory removed with the test.
class ParsedFileScanTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("distwar-pf", Root));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  llvm::SmallString<256> Root;
};

TEST_F(ParsedFileScanTest, ScanSeesAtomicsThatAUserHeaderBrings) {
  write("grad.h", "#define GRAD(p, v) atomicAdd(p, v)\n");
  std::vector<std::string> Args = hermeticArgs();
  Args.push_back("-I" + std::string(Root));
  llvm::StringRef Code = "#include \"grad.h\"\n"
                         "__global__ void k(float *g, float v) {\n"
                         "  GRAD(&g[0], v);\n"
                         "}\n";
  // The cheap test misses it; the preprocessor's finds it.
  EXPECT_FALSE(mentionsAtomics(Code));
  llvm::Expected<TokenScan> Scan =
      scanTokens("/virtual/scan.cu", Code, FrontEnd(Args));
  ASSERT_TRUE(bool(Scan)) << llvm::toString(Scan.takeError());
  EXPECT_TRUE(Scan->MayHaveAtomics);
  EXPECT_TRUE(readsFileNamed(Scan->FilesRead, "grad.h"));
}

TEST(ParsedFile, ScanIgnoresAtomicsOfSystemHeaders) {
  // The shim declares atomicAdd, in a system header: not a reason to parse.
  llvm::Expected<TokenScan> Scan = scanTokens(
      "/virtual/scan.cu", "__global__ void k(float *g) { g[0] = 1; }\n",
      FrontEnd(hermeticArgs()));
  ASSERT_TRUE(bool(Scan)) << llvm::toString(Scan.takeError());
  EXPECT_FALSE(Scan->MayHaveAtomics);
}

} // namespace
