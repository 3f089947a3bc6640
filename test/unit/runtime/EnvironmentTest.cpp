//===- EnvironmentTest.cpp - DISTWAR_* variables, through a fake getenv ---===//

#include "distwar/environment.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace distwar;

namespace {

struct FakeEnv {
  std::map<std::string, std::string> vars;
  Environment read() const {
    return readEnvironment([this](const char *name) -> const char * {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    });
  }
};

} // namespace

TEST(Environment, NothingSet) {
  Environment env = FakeEnv().read();
  EXPECT_EQ(env.allSites, -1);
  EXPECT_TRUE(env.perSite.empty());
  EXPECT_TRUE(env.autotune);
  EXPECT_FALSE(env.autotuneGiven);
  EXPECT_EQ(env.interval, -1);
  EXPECT_FALSE(env.searchGiven);
  EXPECT_TRUE(env.report.empty());
  EXPECT_EQ(env.thresholdFor("renderCUDA#0"), -1);
}

TEST(Environment, OneValueForEverySite) {
  FakeEnv f;
  f.vars["DISTWAR_THRESHOLD"] = "12";
  Environment env = f.read();
  EXPECT_EQ(env.allSites, 12);
  EXPECT_EQ(env.thresholdFor("anything#3"), 12);
  f.vars["DISTWAR_THRESHOLD"] = "plain";
  EXPECT_EQ(f.read().allSites, 33);
  f.vars["DISTWAR_THRESHOLD"] = "0";
  EXPECT_EQ(f.read().allSites, 0);
}

TEST(Environment, TheBlockStrategyByNumberAndByName) {
  FakeEnv f;
  f.vars["DISTWAR_THRESHOLD"] = "34";
  EXPECT_EQ(f.read().allSites, kBlockStrategy);
  f.vars["DISTWAR_THRESHOLD"] = "block";
  EXPECT_EQ(f.read().allSites, kBlockStrategy);
  f.vars["DISTWAR_THRESHOLD"] = "12,spheres#0=block,texture#1=34";
  const Environment env = f.read();
  EXPECT_EQ(env.allSites, 12);
  EXPECT_EQ(env.thresholdFor("spheres#0"), 34);
  EXPECT_EQ(env.thresholdFor("texture#1"), 34);
  EXPECT_EQ(env.thresholdFor("other#0"), 12);
}

TEST(Environment, TheSerialFormByName) {
  FakeEnv f;
  f.vars["DISTWAR_THRESHOLD"] = "serial:8,render#0=serial:0,render#1=8";
  const Environment env = f.read();
  EXPECT_EQ(env.allSites, kSerialForm | 8);
  EXPECT_EQ(env.thresholdFor("render#0"), kSerialForm);
  EXPECT_EQ(env.thresholdFor("render#1"), 8);
  EXPECT_EQ(siteValueName(kSerialForm | 8), "serial:8");
  EXPECT_EQ(siteValueName(12), "12");
  EXPECT_EQ(siteValueName(kBlockStrategy), "34");
}

TEST(Environment, PerSiteValues) {
  FakeEnv f;
  f.vars["DISTWAR_THRESHOLD"] =
      "renderCUDA#0=16,render/grad.cuh:addGrad#1=plain,8";
  Environment env = f.read();
  EXPECT_EQ(env.allSites, 8);
  ASSERT_EQ(env.perSite.size(), 2u);
  EXPECT_EQ(env.thresholdFor("renderCUDA#0"), 16);
  EXPECT_EQ(env.thresholdFor("render/grad.cuh:addGrad#1"), 33);
  EXPECT_EQ(env.thresholdFor("renderCUDA#1"), 8);
  // A site named twice: the last entry wins.
  f.vars["DISTWAR_THRESHOLD"] = "a#0=3,a#0=5";
  env = f.read();
  EXPECT_EQ(env.thresholdFor("a#0"), 5);
  EXPECT_EQ(env.thresholdFor("b#0"), -1);
}

TEST(Environment, OtherVariables) {
  FakeEnv f;
  f.vars = {{"DISTWAR_AUTOTUNE", "0"},
            {"DISTWAR_AUTOTUNE_INTERVAL", "250"},
            {"DISTWAR_AUTOTUNE_SEARCH", "exhaustive"},
            {"DISTWAR_REPORT", "/tmp/x.jsonl"}};
  Environment env = f.read();
  EXPECT_FALSE(env.autotune);
  EXPECT_TRUE(env.autotuneGiven);
  EXPECT_EQ(env.interval, 250);
  EXPECT_TRUE(env.searchGiven);
  EXPECT_EQ(env.search, SearchMode::kExhaustive);
  EXPECT_EQ(env.report, "/tmp/x.jsonl");
  // Empty is unset.
  f.vars = {{"DISTWAR_THRESHOLD", ""}, {"DISTWAR_AUTOTUNE", ""}};
  env = f.read();
  EXPECT_EQ(env.allSites, -1);
  EXPECT_TRUE(env.autotune);
}

TEST(Environment, BadValuesNameTheVariable) {
  for (auto bad : std::vector<std::pair<std::string, std::string>>{
           {"DISTWAR_THRESHOLD", "35"},
           {"DISTWAR_THRESHOLD", "-1"},
           {"DISTWAR_THRESHOLD", "8x"},
           {"DISTWAR_THRESHOLD", "Plain"},
           {"DISTWAR_THRESHOLD", "Block"},
           {"DISTWAR_THRESHOLD", "12,13"},
           {"DISTWAR_THRESHOLD", "=4"},
           {"DISTWAR_THRESHOLD", "a#0="},
           {"DISTWAR_THRESHOLD", "a#0=35"},
           {"DISTWAR_THRESHOLD", "a#0=4,"},
           {"DISTWAR_THRESHOLD", "serial:33"},
           {"DISTWAR_THRESHOLD", "serial:block"},
           {"DISTWAR_THRESHOLD", "serial:"},
           {"DISTWAR_THRESHOLD", "72"},
           {"DISTWAR_AUTOTUNE", "yes"},
           {"DISTWAR_AUTOTUNE_INTERVAL", "0"},
           {"DISTWAR_AUTOTUNE_SEARCH", "random"}}) {
    FakeEnv f;
    f.vars = {bad};
    try {
      f.read();
      ADD_FAILURE() << bad.first << "=" << bad.second << " was accepted";
    } catch (const std::invalid_argument &e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("distwar: " + bad.first + "=" + bad.second +
                                  ": expected ",
                              0),
                0u)
          << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
}
