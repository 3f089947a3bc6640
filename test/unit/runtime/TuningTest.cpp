//===- TuningTest.cpp - Autotuner logic with a fake clock -----------------===//

#include "distwar/tuning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <thread>

using namespace distwar;

namespace {

/// A launch that adds 1 to an output, timed by a function of the threshold;
/// copies cost `copyMs` each.
class FakeRunner : public TrialRunner {
public:
  explicit FakeRunner(std::function<double(int)> time)
      : time(std::move(time)) {}

  void setThreshold(int t) override {
    threshold = t;
    log += "t" + std::to_string(t) + " ";
  }
  void launch() override {
    ++output;
    ++launches;
    log += "L ";
  }
  void beginTuning() override {
    saved = output;
    session = copyMs;
    launchedInSession = false;
    log += "save ";
  }
  std::vector<double> timedLaunches(const std::vector<int> &ts) override {
    std::vector<double> ms;
    for (int t : ts) {
      if (launchedInSession) {
        output = saved;
        session += copyMs;
        log += "restore ";
      }
      setThreshold(t);
      launch();
      launchedInSession = true;
      ms.push_back(time(t));
      session += time(t);
    }
    return ms;
  }
  double endTuning() override { return session; }

  std::function<double(int)> time;
  double copyMs = 0.01;
  int threshold = -1;
  int output = 0;
  int saved = 0;
  int launches = 0;
  double session = 0;
  bool launchedInSession = false;
  std::string log;
};

double valley(int t) { return 1.0 + std::abs(t - 20) * 0.01; }

TunerOptions exhaustive(long long interval = 2000) {
  TunerOptions o;
  o.retuneInterval = interval;
  o.localRetune = false;
  return o;
}

} // namespace

TEST(Search, ExhaustiveTriesEveryDistinctThresholdOnce) {
  std::vector<int> seen;
  SearchResult r = searchThreshold(
      SearchMode::kExhaustive, 8, [&](const std::vector<int> &ts) {
        seen.insert(seen.end(), ts.begin(), ts.end());
        std::vector<double> ms;
        for (int t : ts)
          ms.push_back(valley(t));
        return ms;
      });
  // 1..33, then the block strategy.
  ASSERT_EQ(seen.size(), 34u);
  for (int t = 1; t <= 34; ++t)
    EXPECT_EQ(seen[t - 1], t);
  EXPECT_EQ(r.best, 20);
  EXPECT_DOUBLE_EQ(r.bestMs, 1.0);
}

TEST(Search, TiesPickTheLowestThreshold) {
  auto flat = [](const std::vector<int> &ts) {
    return std::vector<double>(ts.size(), 2.5);
  };
  EXPECT_EQ(searchThreshold(SearchMode::kExhaustive, 8, flat).best, 1);
  EXPECT_EQ(searchThreshold(SearchMode::kCoarseToFine, 8, flat).best, 1);
  auto twoMinima = [](const std::vector<int> &ts) {
    std::vector<double> ms;
    for (int t : ts)
      ms.push_back(t == 9 || t == 25 ? 1.0 : 3.0);
    return ms;
  };
  EXPECT_EQ(searchThreshold(SearchMode::kExhaustive, 8, twoMinima).best, 9);
  EXPECT_EQ(searchThreshold(SearchMode::kCoarseToFine, 8, twoMinima).best, 9);
  // A launch without block sites runs 34 as plain atomics, as 33: the tie
  // keeps 33.
  auto plainBest = [](const std::vector<int> &ts) {
    std::vector<double> ms;
    for (int t : ts)
      ms.push_back(t >= 33 ? 1.0 : 2.0);
    return ms;
  };
  EXPECT_EQ(searchThreshold(SearchMode::kExhaustive, 8, plainBest).best, 33);
  EXPECT_EQ(searchThreshold(SearchMode::kCoarseToFine, 8, plainBest).best, 33);
}

TEST(Search, TheBlockStrategyIsACandidateOfItsOwn) {
  // The block strategy is fastest; the warp thresholds have their best at 6.
  for (SearchMode mode : {SearchMode::kExhaustive, SearchMode::kCoarseToFine}) {
    std::vector<int> seen;
    SearchResult r = searchThreshold(mode, 8, [&](const std::vector<int> &ts) {
      seen.insert(seen.end(), ts.begin(), ts.end());
      std::vector<double> ms;
      for (int t : ts)
        ms.push_back(t == 34 ? 0.5 : 1.0 + std::abs(t - 6));
      return ms;
    });
    EXPECT_EQ(r.best, 34);
    EXPECT_DOUBLE_EQ(r.bestMs, 0.5);
    for (int t : seen)
      EXPECT_TRUE(t >= 1 && t <= 34) << t;
    // Tried once, however the refinement goes.
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 34), 1);
    if (mode == SearchMode::kCoarseToFine) {
      // 1, 9, 17, 25, 33, 34, then halving around the fastest warp
      // threshold (9, then 5, then 5 again: 7 ties), never around 34.
      EXPECT_EQ(seen,
                (std::vector<int>{1, 9, 17, 25, 33, 34, 5, 13, 3, 7, 4, 6}));
    }
  }
}

TEST(Search, CoarseToFineFindsEveryMinimumOfAValleyWithFewTrials) {
  for (int target = 1; target <= 33; ++target) {
    size_t trials = 0;
    SearchResult r = searchThreshold(
        SearchMode::kCoarseToFine, 8, [&](const std::vector<int> &ts) {
          trials += ts.size();
          std::vector<double> ms;
          for (int t : ts)
            ms.push_back(1.0 + std::abs(t - target));
          return ms;
        });
    EXPECT_EQ(r.best, target) << "minimum at " << target;
    EXPECT_LE(trials, 12u);
    EXPECT_EQ(r.trials.size(), trials);
  }
}

TEST(Search, RejectsARunnerThatLosesTrials) {
  auto broken = [](const std::vector<int> &ts) {
    return std::vector<double>(ts.size() - 1, 1.0);
  };
  EXPECT_THROW(searchThreshold(SearchMode::kExhaustive, 8, broken),
               std::logic_error);
}

TEST(Autotuner, FirstCallTunesAndLeavesTheOutputsOfOneLaunch) {
  Autotuner tuner(exhaustive());
  FakeRunner runner(valley);
  runner.output = 100;
  tuner.call(0, runner);
  EXPECT_EQ(runner.output, 101);
  EXPECT_EQ(runner.launches, 34);
  EXPECT_EQ(runner.threshold, 20);
  // Every trial after the first is preceded by a restore.
  EXPECT_EQ(runner.log.rfind("save t1 L restore t2 L restore t3 L", 0), 0u)
      << runner.log;
  TunerStats s = tuner.stats(0);
  EXPECT_EQ(s.tunings, 1);
  EXPECT_EQ(s.threshold, 20);
  EXPECT_EQ(s.lastTrials.size(), 34u);
}

TEST(Autotuner, RetunesEveryIntervalCalls) {
  Autotuner tuner(exhaustive(5));
  FakeRunner runner(valley);
  for (int i = 0; i < 11; ++i)
    tuner.call(0, runner);
  // Calls 1, 6 and 11 tune (34 launches each); the other 8 launch once.
  EXPECT_EQ(tuner.stats(0).tunings, 3);
  EXPECT_EQ(runner.launches, 3 * 34 + 8);
  EXPECT_EQ(runner.output, 11);
  EXPECT_EQ(tuner.stats(0).calls, 11);
}

TEST(Autotuner, FollowsAMovingOptimum) {
  int optimum = 5;
  Autotuner tuner(exhaustive(3));
  FakeRunner runner([&](int t) { return 1.0 + std::abs(t - optimum); });
  tuner.call(0, runner);
  EXPECT_EQ(runner.threshold, 5);
  optimum = 30;
  tuner.call(0, runner);
  tuner.call(0, runner);
  EXPECT_EQ(runner.threshold, 5);
  tuner.call(0, runner);
  EXPECT_EQ(runner.threshold, 30);
}

TEST(Autotuner, ReportsOverheadBeyondOneLaunch) {
  Autotuner tuner(exhaustive(2000));
  FakeRunner runner([](int) { return 1.0; });
  runner.copyMs = 0.0;
  for (int i = 0; i < 2000; ++i)
    tuner.call(0, runner);
  TunerStats s = tuner.stats(0);
  // 34 trials of 1 ms where one launch was due: 33 ms over 2000 ms of kernels.
  EXPECT_DOUBLE_EQ(s.overheadMs, 33.0);
  EXPECT_DOUBLE_EQ(s.kernelMs, 2000.0);
  EXPECT_NEAR(s.overheadFraction(), 0.0165, 1e-12);

  TunerOptions coarse = exhaustive(2000);
  coarse.mode = SearchMode::kCoarseToFine;
  Autotuner fast(coarse);
  for (int i = 0; i < 2000; ++i)
    fast.call(0, runner);
  EXPECT_LE(fast.stats(0).overheadFraction(), 0.01);
}

TEST(Autotuner, ForcedThresholdNeverTunes) {
  TunerOptions o = exhaustive();
  o.forcedThreshold = 7;
  Autotuner tuner(o);
  FakeRunner runner(valley);
  for (int i = 0; i < 3; ++i)
    tuner.call(0, runner);
  EXPECT_EQ(runner.launches, 3);
  EXPECT_EQ(runner.threshold, 7);
  EXPECT_EQ(runner.log, "t7 L L L ");
  tuner.force(-1);
  tuner.call(0, runner);
  EXPECT_EQ(runner.threshold, 20);
  // The block strategy can be forced like any threshold.
  tuner.force(kBlockStrategy);
  runner.log.clear();
  tuner.call(0, runner);
  EXPECT_EQ(runner.log, "t34 L ");
}

TEST(Autotuner, DisabledLaunchesWithThresholdsAsTheyAre) {
  TunerOptions o = exhaustive();
  o.enabled = false;
  Autotuner tuner(o);
  FakeRunner runner(valley);
  tuner.call(0, runner);
  tuner.call(0, runner);
  EXPECT_EQ(runner.log, "L L ");
  tuner.setEnabled(true);
  tuner.call(0, runner);
  EXPECT_EQ(tuner.stats(0).tunings, 1);
}

TEST(Autotuner, KeepsOneStatePerDevice) {
  Autotuner tuner(exhaustive(100));
  FakeRunner fast([](int t) { return t == 3 ? 1.0 : 2.0; });
  FakeRunner slow([](int t) { return t == 31 ? 1.0 : 2.0; });
  tuner.call(0, fast);
  tuner.call(1, slow);
  tuner.call(0, fast);
  EXPECT_EQ(tuner.stats(0).threshold, 3);
  EXPECT_EQ(tuner.stats(1).threshold, 31);
  EXPECT_EQ(tuner.stats(0).calls, 2);
  EXPECT_EQ(tuner.stats(1).tunings, 1);
  EXPECT_EQ(tuner.stats(2).calls, 0);
}

TEST(Autotuner, ConcurrentCallsAreCountedOnce) {
  Autotuner tuner(exhaustive(50));
  std::vector<std::thread> threads;
  std::vector<std::unique_ptr<FakeRunner>> runners;
  for (int i = 0; i < 4; ++i)
    runners.push_back(std::make_unique<FakeRunner>(valley));
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      for (int c = 0; c < 250; ++c)
        tuner.call(0, *runners[i]);
    });
  for (std::thread &t : threads)
    t.join();
  TunerStats s = tuner.stats(0);
  EXPECT_EQ(s.calls, 1000);
  EXPECT_EQ(s.tunings, 20);
  int outputs = 0;
  for (auto &r : runners)
    outputs += r->output;
  EXPECT_EQ(outputs, 1000);
}

TEST(Environment, ParsesAndRejects) {
  std::map<std::string, std::string> env;
  auto get = [&](const char *name) -> const char * {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  TunerOptions o = applyEnvironment(TunerOptions(), get);
  EXPECT_EQ(o.forcedThreshold, -1);
  EXPECT_TRUE(o.enabled);
  env = {{"DISTWAR_THRESHOLD", "block"}};
  EXPECT_EQ(applyEnvironment(TunerOptions(), get).forcedThreshold, 34);
  env = {{"DISTWAR_THRESHOLD", "33"},
         {"DISTWAR_AUTOTUNE", "0"},
         {"DISTWAR_AUTOTUNE_INTERVAL", "500"},
         {"DISTWAR_AUTOTUNE_SEARCH", "coarse"}};
  o = applyEnvironment(TunerOptions(), get);
  EXPECT_EQ(o.forcedThreshold, 33);
  EXPECT_FALSE(o.enabled);
  EXPECT_EQ(o.retuneInterval, 500);
  EXPECT_EQ(o.mode, SearchMode::kCoarseToFine);
  for (auto bad : std::vector<std::pair<std::string, std::string>>{
           {"DISTWAR_THRESHOLD", "35"},
           {"DISTWAR_THRESHOLD", "-1"},
           {"DISTWAR_THRESHOLD", "8x"},
           {"DISTWAR_AUTOTUNE", "yes"},
           {"DISTWAR_AUTOTUNE_INTERVAL", "0"},
           {"DISTWAR_AUTOTUNE_SEARCH", "random"}}) {
    env = {bad};
    EXPECT_THROW(applyEnvironment(TunerOptions(), get), std::invalid_argument)
        << bad.first << "=" << bad.second;
  }
}

TEST(Autotuner, RejectsOutOfRangeOptions) {
  Autotuner tuner;
  EXPECT_NO_THROW(tuner.force(34));
  EXPECT_THROW(tuner.force(35), std::out_of_range);
  EXPECT_NO_THROW(tuner.force(kSerialForm | 8));
  EXPECT_THROW(tuner.force(kSerialForm | 33), std::out_of_range);
  EXPECT_THROW(tuner.force(-2), std::out_of_range);
  TunerOptions o;
  o.retuneInterval = 0;
  EXPECT_THROW(tuner.setOptions(o), std::out_of_range);
}

TEST(Autotuner, LocalRetunesSearchAroundTheThresholdInForce) {
  int optimum = 20;
  TunerOptions o = exhaustive(10);
  o.localRetune = true;
  Autotuner tuner(o);
  FakeRunner runner([&](int t) { return 1.0 + std::abs(t - optimum); });
  tuner.call(0, runner);
  EXPECT_EQ(tuner.stats(0).lastTrials.size(), 34u);
  optimum = 23;
  for (int i = 0; i < 10; ++i)
    tuner.call(0, runner);
  TunerStats s = tuner.stats(0);
  EXPECT_EQ(s.tunings, 2);
  ASSERT_EQ(s.lastTrials.size(), 7u);
  std::vector<int> tried;
  for (const Trial &t : s.lastTrials)
    tried.push_back(t.threshold);
  EXPECT_EQ(tried, (std::vector<int>{16, 18, 19, 20, 21, 22, 24}));
  EXPECT_EQ(s.threshold, 22); // the window moves towards the optimum
  EXPECT_GT(s.retuneOverheadMs, 0.0);
  EXPECT_LT(s.retuneOverheadMs, s.overheadMs);
  EXPECT_EQ(runner.output, 11);
}

TEST(Search, RefineStaysInRange) {
  auto flat = [](const std::vector<int> &ts) {
    return std::vector<double>(ts.size(), 1.0);
  };
  SearchResult low = refineThreshold(1, flat);
  EXPECT_EQ(low.trials.size(), 4u); // 1, 2, 3, 5
  EXPECT_EQ(low.best, 1);
  // 29, 31, 32, 33: never a step into the block strategy.
  SearchResult high = refineThreshold(33, flat);
  ASSERT_EQ(high.trials.size(), 4u);
  EXPECT_EQ(high.trials.back().threshold, 33);
}

TEST(Search, RefineAtTheBlockStrategyTimesTheBestWarpNeighbourhood) {
  auto flat = [](const std::vector<int> &ts) {
    return std::vector<double>(ts.size(), 1.0);
  };
  std::vector<int> tried;
  for (const Trial &t : refineThreshold(34, flat, 20).trials)
    tried.push_back(t.threshold);
  EXPECT_EQ(tried, (std::vector<int>{16, 18, 19, 20, 21, 22, 24, 34}));
  // No warp threshold known: the block strategy alone.
  SearchResult alone = refineThreshold(34, flat);
  ASSERT_EQ(alone.trials.size(), 1u);
  EXPECT_EQ(alone.best, 34);
}

TEST(Search, TheFormsDoubleTheWarpThresholds) {
  std::vector<int> tried;
  auto record = [&](const std::vector<int> &ts) {
    tried.insert(tried.end(), ts.begin(), ts.end());
    std::vector<double> ms;
    for (int t : ts)
      ms.push_back(asksSerialForm(t) ? 0.5 + valley(thresholdOf(t)) - 1
                                     : valley(t));
    return ms;
  };
  SearchResult r = searchThreshold(SearchMode::kExhaustive, 8, record, true);
  EXPECT_EQ(tried.size(), 33u + 32u + 1u);
  EXPECT_EQ(r.best, kSerialForm | 20);
  // Coarse: the grid in both forms, then halving in the winner's form.
  tried.clear();
  r = searchThreshold(SearchMode::kCoarseToFine, 8, record, true);
  EXPECT_EQ(r.best, kSerialForm | 20);
  for (size_t i = 10; i < tried.size(); ++i)
    EXPECT_TRUE(asksSerialForm(tried[i]) || tried[i] == kBlockStrategy)
        << tried[i];
}

TEST(Search, RefineInTheSerialFormTimesBothForms) {
  auto flat = [](const std::vector<int> &ts) {
    return std::vector<double>(ts.size(), 1.0);
  };
  std::vector<int> tried;
  for (const Trial &t : refineThreshold(kSerialForm | 31, flat, -1, true).trials)
    tried.push_back(t.threshold);
  // serial:27..32 and plain atomics (33 has no form), and the same
  // thresholds as butterflies.
  std::sort(tried.begin(), tried.end());
  EXPECT_EQ(tried, (std::vector<int>{27, 29, 30, 31, 32, 33, 91, 93, 94, 95,
                                     96}));
  // Flat: the tie goes to the butterfly (the lower value).
  EXPECT_EQ(refineThreshold(kSerialForm | 31, flat, -1, true).best, 27);
}

TEST(Autotuner, LocalRetunesMoveBetweenTheStrategies) {
  // The block strategy wins the first search; the warp thresholds are best
  // at 10. Then the block strategy slows down (another scene): the local
  // re-tune around 34 times the neighbourhood of 10 too, and moves there.
  double blockMs = 0.5;
  TunerOptions o = exhaustive(5);
  o.localRetune = true;
  Autotuner tuner(o);
  FakeRunner runner([&](int t) {
    return t == kBlockStrategy ? blockMs : 1.0 + 0.01 * std::abs(t - 10);
  });
  tuner.call(0, runner);
  EXPECT_EQ(tuner.stats(0).threshold, kBlockStrategy);
  blockMs = 2.0;
  for (int i = 0; i < 5; ++i)
    tuner.call(0, runner);
  TunerStats s = tuner.stats(0);
  EXPECT_EQ(s.tunings, 2);
  std::vector<int> tried;
  for (const Trial &t : s.lastTrials)
    tried.push_back(t.threshold);
  EXPECT_EQ(tried, (std::vector<int>{6, 8, 9, 10, 11, 12, 14, 34}));
  EXPECT_EQ(s.threshold, 10);
  // Back at a warp threshold, a re-tune steps among the warp thresholds.
  for (int i = 0; i < 5; ++i)
    tuner.call(0, runner);
  s = tuner.stats(0);
  EXPECT_EQ(s.tunings, 3);
  EXPECT_EQ(s.lastTrials.size(), 7u);
  EXPECT_EQ(s.threshold, 10);
}
