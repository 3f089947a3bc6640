//===- RegistryTest.cpp - Site registry, environment and report, no GPU --===//
//
// One process per environment (test/unit/runtime/CMakeLists.txt runs each
// suite with its own DISTWAR_* variables): the registry reads them once,
// when the first table registers (RegistryTables.cu). No test here needs a
// GPU; where one is present, the wrapped launch tunes, and the checks that
// differ say so.
//
//===----------------------------------------------------------------------===//

#include "distwar/launch.h"
#include "distwar/sites.h"
#include "distwar/tuning.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

void launchReadBoth(int *out, cudaStream_t stream);
void launchReadInitial(int *out, cudaStream_t stream);

namespace {

using distwar::ThresholdOrigin;
using distwar::detail::SiteRegistry;
using distwar::detail::SiteTable;

const SiteTable &table(const std::string &name =
                           "distwar_sites_registry_tables_cu") {
  for (const SiteTable &t : SiteRegistry::instance().tables)
    if (t.table == name)
      return t;
  throw std::logic_error("RegistryTables.cu did not register " + name);
}

const SiteTable &initialTable() {
  return table("distwar_sites_registry_initial_cu");
}

bool haveGpu() {
  int n = 0;
  const bool yes = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  return yes;
}

/// Launches as a program does, checking (and so clearing) its own errors.
void launch(int times) {
  int *out = nullptr;
  const bool gpu = haveGpu();
  if (gpu)
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&out), 2 * sizeof(int)),
              cudaSuccess);
  for (int i = 0; i < times; ++i) {
    launchReadBoth(out, nullptr);
    const cudaError_t err = cudaGetLastError();
    if (gpu)
      ASSERT_EQ(err, cudaSuccess) << cudaGetErrorString(err);
  }
  if (gpu) {
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(out);
  }
}

std::vector<std::string> reportLines() {
  // One file per process: ctest runs the registry tests' processes at once.
  const std::string path = ::testing::TempDir() + "distwar-registry-" +
                           std::to_string(getpid()) + ".jsonl";
  EXPECT_EQ(distwar_write_report(path.c_str()), 0);
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::remove(path.c_str());
  return lines;
}

std::string lineOf(const std::vector<std::string> &lines,
                   const std::string &site) {
  for (const std::string &l : lines)
    if (l.find("\"site\": \"" + site + "\"") != std::string::npos)
      return l;
  return "";
}

} // namespace

TEST(RegistryDefault, TablesRegisterWithTheirInitialZero) {
  const SiteTable &t = table();
  EXPECT_EQ(t.names, (std::vector<std::string>{"a#0", "b#0"}));
  EXPECT_EQ(t.value, (std::vector<int>{0, 0}));
  EXPECT_EQ(t.origin[0], ThresholdOrigin::kDefault);
  EXPECT_TRUE(SiteRegistry::instance().environmentError().empty());
  const std::vector<std::string> names = distwar::siteNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "a#0"), names.end());
}

TEST(RegistryDefault, TablesRegisterWithTheInitialValuesTheyName) {
  const SiteTable &t = initialTable();
  EXPECT_EQ(t.value, (std::vector<int>{33, 0}));
  EXPECT_EQ(t.origin[0], ThresholdOrigin::kDefault);
  EXPECT_EQ(t.origin[1], ThresholdOrigin::kDefault);
  EXPECT_NE(lineOf(reportLines(), "c#0")
                .find("\"threshold\": 33, \"how\": \"default\""),
            std::string::npos)
      << lineOf(reportLines(), "c#0");
  if (!haveGpu())
    GTEST_SKIP() << "the device table needs a GPU";
  // The device table holds them before any launch or setter.
  int *out = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&out), 2 * sizeof(int)),
            cudaSuccess);
  launchReadInitial(out, nullptr);
  int host[2] = {-1, -1};
  ASSERT_EQ(cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost),
            cudaSuccess);
  cudaFree(out);
  EXPECT_EQ(host[0], 33);
  EXPECT_EQ(host[1], 0);
}

TEST(RegistryDefault, WrappedLaunchesAreCountedAndReported) {
  launch(40);
  const std::vector<std::string> lines = reportLines();
  const std::string a = lineOf(lines, "a#0");
  ASSERT_FALSE(a.empty()) << "no report line for a#0";
  EXPECT_NE(a.find("\"table\": \"distwar_sites_registry_tables_cu\""),
            std::string::npos)
      << a;
  EXPECT_NE(a.find("\"kernels\": \"readBoth\""), std::string::npos) << a;
  EXPECT_NE(a.find("\"calls\": 40"), std::string::npos) << a;
  if (haveGpu()) {
    // Forty launches: the search is under way (or done).
    EXPECT_TRUE(a.find("\"how\": \"searching\"") != std::string::npos ||
                a.find("\"how\": \"tuned\"") != std::string::npos)
        << a;
  } else {
    // Without a device nothing is written: the table keeps its zero.
    EXPECT_NE(a.find("\"threshold\": 0, \"how\": \"default\""),
              std::string::npos)
        << a;
  }
  EXPECT_FALSE(lineOf(lines, "b#0").empty());
}

TEST(RegistryDefault, EachSharedObjectHasItsOwnRegistry) {
  // Two copies of one shared object (two files: two loads), RTLD_LOCAL as
  // Python loads extensions; each reports its own table only.
  std::vector<std::string> reports;
  for (int copy = 0; copy < 2; ++copy) {
    const std::string so =
        ::testing::TempDir() + "distwar-tables-" + std::to_string(copy) + ".so";
    {
      std::ifstream in(DISTWAR_TEST_SHARED_TABLES, std::ios::binary);
      std::ofstream out(so, std::ios::binary);
      out << in.rdbuf();
    }
    void *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    auto write = reinterpret_cast<int (*)(const char *)>(
        dlsym(handle, "distwar_write_report"));
    ASSERT_NE(write, nullptr) << dlerror();
    const std::string path = so + ".jsonl";
    ASSERT_EQ(write(path.c_str()), 0);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    reports.push_back(text);
    std::remove(path.c_str());
    std::remove(so.c_str());
  }
  for (const std::string &r : reports)
    EXPECT_EQ(std::count(r.begin(), r.end(), '\n'), 2) << r;
}

TEST(RegistryDefault, TheBlockStrategyIsASiteValue) {
  EXPECT_NO_THROW(distwar::detail::checkThreshold(distwar::kBlockStrategy));
  EXPECT_THROW(distwar::detail::checkThreshold(35), std::out_of_range);
  EXPECT_THROW(distwar::detail::checkThreshold(-1), std::out_of_range);
  EXPECT_NO_THROW(distwar::detail::checkThreshold(distwar::kSerialForm | 32));
  EXPECT_THROW(distwar::detail::checkThreshold(distwar::kSerialForm | 33),
               std::out_of_range);
}

TEST(RegistryDefault, BlockCapableSitesAddTheBlockStrategyToTheirLaunches) {
  // `{&table, "name"}` still names a site, with the flag off.
  static int table[1];
  const distwar::SiteRef warp{&table, "w#0"};
  const distwar::SiteRef block{&table, "b#0", true};
  EXPECT_FALSE(warp.block);
  EXPECT_TRUE(block.block);
  distwar::Environment env;
  std::vector<int> c =
      distwar::detail::launchTunerOptions(env, false, false).candidates;
  EXPECT_EQ(std::count(c.begin(), c.end(), distwar::kBlockStrategy), 0);
  c = distwar::detail::launchTunerOptions(env, true, false).candidates;
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.back(), distwar::kBlockStrategy);
  env.searchGiven = true;
  env.search = distwar::SearchMode::kExhaustive;
  c = distwar::detail::launchTunerOptions(env, true, false).candidates;
  ASSERT_EQ(c.size(), 34u);
  EXPECT_EQ(c.back(), distwar::kBlockStrategy);
}

TEST(RegistryDefault, TwoFormSitesAddTheSerialFormToTheirLaunches) {
  static int table[1];
  const distwar::SiteRef both{&table, "f#0", false, true};
  EXPECT_TRUE(both.forms);
  EXPECT_FALSE((distwar::SiteRef{&table, "b#0", true}).forms);
  distwar::Environment env;
  const std::vector<int> one =
      distwar::detail::launchTunerOptions(env, false, false).candidates;
  std::vector<int> c =
      distwar::detail::launchTunerOptions(env, false, true).candidates;
  // Every warp threshold below plain atomics, once more in the serial form.
  std::vector<int> expected = one;
  for (int t : one)
    if (t < distwar::kNeverReduce)
      expected.push_back(distwar::kSerialForm | t);
  EXPECT_EQ(c, expected);
  env.searchGiven = true;
  env.search = distwar::SearchMode::kExhaustive;
  c = distwar::detail::launchTunerOptions(env, true, true).candidates;
  EXPECT_EQ(c.size(), 34u + 32u);
  EXPECT_EQ(std::count(c.begin(), c.end(), distwar::kBlockStrategy), 1);
  EXPECT_EQ(std::count(c.begin(), c.end(), distwar::kSerialForm | 32), 1);
  EXPECT_EQ(std::count(c.begin(), c.end(), distwar::kSerialForm | 33), 0);
}

TEST(RegistryDefault, ReportStringsAreEscaped) {
  EXPECT_EQ(distwar::detail::jsonString("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
}

TEST(RegistryDefault, ReportToAnUnwritablePathFails) {
  EXPECT_EQ(distwar_write_report("/nonexistent-dir/x.jsonl"), -1);
  EXPECT_EQ(distwar_write_report(nullptr), -1);
}

// DISTWAR_THRESHOLD=7,b#0=plain DISTWAR_AUTOTUNE=0
TEST(RegistryEnvironment, ThresholdsApplyWhenTablesRegister) {
  const SiteTable &t = table();
  EXPECT_EQ(t.value, (std::vector<int>{7, 33}));
  EXPECT_EQ(t.origin[0], ThresholdOrigin::kEnvironment);
  EXPECT_EQ(t.origin[1], ThresholdOrigin::kEnvironment);
  // The environment overrides a table's initial values too.
  EXPECT_EQ(initialTable().value, (std::vector<int>{7, 7}));
  launch(5);
  const std::vector<std::string> lines = reportLines();
  EXPECT_NE(
      lineOf(lines, "a#0").find("\"threshold\": 7, \"how\": \"environment\""),
      std::string::npos)
      << lineOf(lines, "a#0");
  EXPECT_NE(
      lineOf(lines, "b#0").find("\"threshold\": 33, \"how\": \"environment\""),
      std::string::npos)
      << lineOf(lines, "b#0");
}

TEST(RegistryEnvironment, KernelTunerOptionsFollow) {
  const distwar::TunerOptions o =
      distwar::applyEnvironment(distwar::TunerOptions());
  EXPECT_EQ(o.forcedThreshold, 7);
  EXPECT_FALSE(o.enabled);
}

// DISTWAR_THRESHOLD=seven
TEST(RegistryBadEnvironment, WrappedLaunchesThrowTheMessage) {
  const std::string error = SiteRegistry::instance().environmentError();
  EXPECT_EQ(error, "distwar: DISTWAR_THRESHOLD=seven: expected a threshold "
                   "(0..34, plain, block or serial:0..32), site=threshold "
                   "entries, or both, separated by commas");
  try {
    launchReadBoth(nullptr, nullptr);
    ADD_FAILURE() << "a launch ran with a bad DISTWAR_THRESHOLD";
  } catch (const std::invalid_argument &e) {
    EXPECT_EQ(error, e.what());
  }
  const std::vector<std::string> lines = reportLines();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind("{\"error\": \"distwar: DISTWAR_THRESHOLD=seven", 0),
            0u)
      << lines[0];
}

// DISTWAR_REPORT=<file>: RegistryReportAtExit.cmake reads the file after
// the process has ended.
TEST(RegistryReport, LaunchesBeforeExit) { launch(7); }
