//===- ReportTest.cpp - text and JSON reports -----------------------------===//

#include "distwar-rewrite/Report.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

/// One file with a batched group of two sites and a site left alone.
FileReport sampleReport() {
  FileReport F;
  F.File = "/src/k.cu";
  F.Changed = true;
  F.EditedHeaders = {"/src/grad.h"};
  SiteRecord A;
  A.Line = 3;
  A.Column = 5;
  A.Function = "k";
  A.Callee = "atomicAdd";
  A.Buffer = "grad";
  A.Key = "id";
  A.Field = "0";
  A.Slot = "0";
  A.Type = "float";
  A.Group = "k#0";
  A.Decision = "batched";
  SiteRecord B = A;
  B.Line = 4;
  B.Field = B.Slot = "1";
  SiteRecord C;
  C.Line = 9;
  C.Column = 3;
  C.File = "/src/grad.h";
  C.Function = "h";
  C.Callee = "atomicAdd";
  C.Type = "float";
  C.Decision = "unchanged";
  C.Why = Verdict(Reason::CallBetween,
                  ReasonPlace{"/src/other.h", 8, 7, "this call may write"});
  F.Sites = {A, B, C};
  GroupRecord G;
  G.Name = "k#0";
  G.Function = "k";
  G.Key = "id";
  G.Type = "float";
  G.Size = "2";
  G.Variant = "serial";
  G.Sites = {0, 1};
  G.Decision = "batched";
  G.Note = Reason::KeyNotIntegral;
  G.Strip = true;
  F.Groups = {G};
  return F;
}

TEST(Report, TextHasOneLinePerFileSiteAndGroup) {
  std::string Text = renderTextReport({sampleReport()});
  EXPECT_EQ(
      Text,
      "/src/k.cu: 3 atomic site(s), 1 group(s), rewritten; headers "
      "rewritten: /src/grad.h\n"
      "  /src/k.cu:3:5: batched atomicAdd in k buffer=grad key=id field=0 "
      "slot=0 type=float group=k#0\n"
      "  /src/k.cu:4:5: batched atomicAdd in k buffer=grad key=id field=1 "
      "slot=1 type=float group=k#0\n"
      "  /src/grad.h:9:3: unchanged atomicAdd in h type=float [" +
          reasonInfo(Reason::CallBetween).Code.str() + " " +
          reasonInfo(Reason::CallBetween).Name.str() + ": " +
          reasonInfo(Reason::CallBetween).Message.str() +
          "]\n"
          "  group k#0: batched (serial; not butterfly: DW0007 key-type) "
          "key=id type=float sites=2 slots=2 strip\n");
}

TEST(Report, AnEmptyFileSaysUnchangedAndItsReason) {
  FileReport F;
  F.File = "a.cu";
  F.FileReason = Reason::UsedResult;
  EXPECT_EQ(renderTextReport({F}),
            "a.cu: 0 atomic site(s), 0 group(s), unchanged [DW0001 "
            "used-result: " +
                reasonInfo(Reason::UsedResult).Message.str() + "]\n");
  EXPECT_EQ(renderTextReport({}), "");
}

TEST(Report, JsonHoldsEveryFieldAndThePlaceOfAReason) {
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse(renderJsonReport({sampleReport()}));
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const llvm::json::Array *Files = Parsed->getAsObject()->getArray("files");
  ASSERT_TRUE(Files && Files->size() == 1);
  const llvm::json::Object &File = *(*Files)[0].getAsObject();
  EXPECT_EQ(File.getString("file"), "/src/k.cu");
  EXPECT_EQ(File.getBoolean("changed"), true);
  EXPECT_EQ(File.get("reason")->kind(), llvm::json::Value::Null);
  const llvm::json::Array &Sites = *File.getArray("sites");
  ASSERT_EQ(Sites.size(), 3u);
  const llvm::json::Object &First = *Sites[0].getAsObject();
  EXPECT_EQ(First.getInteger("line"), 3);
  EXPECT_EQ(First.getString("buffer"), "grad");
  EXPECT_EQ(First.getString("decision"), "batched");
  EXPECT_EQ(First.get("file"), nullptr); // the report's own file
  const llvm::json::Object &Left = *Sites[2].getAsObject();
  EXPECT_EQ(Left.getString("file"), "/src/grad.h");
  EXPECT_EQ(Left.getObject("reason")->getString("name"), "call-between");
  const llvm::json::Object *Note = Left.getObject("note");
  ASSERT_TRUE(Note);
  EXPECT_EQ(Note->getInteger("line"), 8);
  EXPECT_EQ(Note->getInteger("column"), 7);
  EXPECT_EQ(Note->getString("file"), "/src/other.h");
  EXPECT_EQ(Note->getString("message"), "this call may write");
  const llvm::json::Object &Group =
      *(*File.getArray("groups"))[0].getAsObject();
  EXPECT_EQ(Group.getString("variant"), "serial");
  EXPECT_EQ(Group.getArray("sites")->size(), 2u);
  EXPECT_EQ(Group.getObject("variant_note")->getString("code"), "DW0007");
  EXPECT_EQ(Group.get("start_note"), nullptr);
  EXPECT_EQ(Group.getBoolean("strip"), true);
  EXPECT_EQ(Group.get("shares_match_with"), nullptr);
}

/// A file's kernels under --balance=tiles: one of its own, balanced, and
/// one of a header it includes, left as written.
FileReport kernelReport() {
  FileReport F;
  F.File = "/src/k.cu";
  KernelRecord Own;
  Own.Line = 12;
  Own.Column = 17;
  Own.Function = "render";
  Own.Decision = "balanced";
  Own.Launches = 2;
  KernelRecord Header;
  Header.Line = 4;
  Header.Column = 17;
  Header.File = "/src/include/blur.cuh";
  Header.Function = "blur";
  Header.Decision = "unchanged";
  Header.Why = Verdict(Reason::TileLaunch,
                       ReasonPlace{"/src/include/blur.cuh", 4, 17,
                                   "the kernel is defined in a header"});
  F.Kernels = {Own, Header};
  return F;
}

TEST(Report, AKernelOfAHeaderIsNamedWithItsFile) {
  std::string Text = renderTextReport({kernelReport()});
  EXPECT_NE(Text.find("  kernel render (line 12): balanced across tiles, 2 "
                      "launch(es) wrapped\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("  kernel blur (/src/include/blur.cuh, line 4): not "
                      "balanced [DW0065 tile-launch: "),
            std::string::npos)
      << Text;
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse(renderJsonReport({kernelReport()}));
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const llvm::json::Object &File =
      *(*Parsed->getAsObject()->getArray("files"))[0].getAsObject();
  const llvm::json::Array &Kernels = *File.getArray("kernels");
  ASSERT_EQ(Kernels.size(), 2u);
  EXPECT_EQ(Kernels[0].getAsObject()->get("file"), nullptr);
  EXPECT_EQ(Kernels[1].getAsObject()->getString("file"),
            "/src/include/blur.cuh");
  EXPECT_EQ(Kernels[1].getAsObject()->getObject("reason")->getString("code"),
            "DW0065");
}

} // namespace
