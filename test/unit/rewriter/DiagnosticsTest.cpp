//===- DiagnosticsTest.cpp - the reason catalogue -------------------------===//

#include "distwar-rewrite/Diagnostics.h"
#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

TEST(Diagnostics, EveryReasonHasAUniqueCodeNameAndMessage) {
  std::vector<Reason> All = allReasons();
  ASSERT_FALSE(All.empty());
  llvm::StringSet<> Codes, Names;
  unsigned Previous = 0;
  for (Reason R : All) {
    const ReasonInfo &Info = reasonInfo(R);
    EXPECT_NE(R, Reason::None);
    EXPECT_TRUE(Info.Code.starts_with("DW") && Info.Code.size() == 6)
        << Info.Code.str();
    EXPECT_FALSE(Info.Name.empty());
    EXPECT_FALSE(Info.Message.empty());
    EXPECT_TRUE(Codes.insert(Info.Code).second) << Info.Code.str();
    EXPECT_TRUE(Names.insert(Info.Name).second) << Info.Name.str();
    // Code order: the codes only grow.
    unsigned Number = 0;
    EXPECT_FALSE(Info.Code.drop_front(2).getAsInteger(10, Number));
    EXPECT_GT(Number, Previous) << Info.Code.str();
    Previous = Number;
  }
}

TEST(Diagnostics, NoneHasEmptyFields) {
  const ReasonInfo &Info = reasonInfo(Reason::None);
  EXPECT_TRUE(Info.Code.empty());
  EXPECT_TRUE(Info.Name.empty());
  EXPECT_TRUE(Info.Message.empty());
}

TEST(Diagnostics, TheFirstCodesAreStable) {
  EXPECT_EQ(reasonInfo(Reason::UsedResult).Code, "DW0001");
  EXPECT_EQ(reasonInfo(Reason::UsedResult).Name, "used-result");
  EXPECT_EQ(reasonInfo(Reason::KeyNotIntegral).Code, "DW0007");
}

TEST(Diagnostics, FindReasonByCodeAnyCaseOrByName) {
  EXPECT_EQ(findReason("DW0001"), Reason::UsedResult);
  EXPECT_EQ(findReason("dw0001"), Reason::UsedResult);
  EXPECT_EQ(findReason("address-form"), Reason::AddressNotDecomposed);
  for (Reason R : allReasons()) {
    EXPECT_EQ(findReason(reasonInfo(R).Code), R);
    EXPECT_EQ(findReason(reasonInfo(R).Name), R);
  }
}

TEST(Diagnostics, UnknownOrEmptyNamesFindNothing) {
  EXPECT_EQ(findReason(""), std::nullopt);
  EXPECT_EQ(findReason("DW9999"), std::nullopt);
  EXPECT_EQ(findReason("no-such-reason"), std::nullopt);
  // Names are matched exactly: only codes ignore case.
  EXPECT_EQ(findReason("USED-RESULT"), std::nullopt);
}

TEST(Diagnostics, AVerdictConvertsToAndFromItsReason) {
  Verdict V(Reason::CallBetween, ReasonPlace{"", 3, 5, "this call"});
  EXPECT_EQ(Reason(V), Reason::CallBetween);
  ASSERT_TRUE(V.Place);
  EXPECT_EQ(V.Place->Line, 3u);
  V = Reason::StoreBetween; // assigning a reason drops the place
  EXPECT_EQ(Reason(V), Reason::StoreBetween);
  EXPECT_FALSE(V.Place);
}

} // namespace
