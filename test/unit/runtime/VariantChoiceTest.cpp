//===- VariantChoiceTest.cpp - Picking a launch's kernel variant ----------===//
//
// A simulated training loop: every launch has a workload that varies from
// call to call, each variant a cost factor that may change with the call
// (the data changing under training); times come back a few launches later,
// as CUDA events read without a sync do.
//
//===----------------------------------------------------------------------===//

#include "distwar/variant_choice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <functional>
#include <string>
#include <vector>

using namespace distwar;

namespace {

class Loop {
public:
  /// `factor(variant, call)`: cost of a launch of that variant relative to
  /// the workload; the workload varies in [1 - noise, 1 + noise].
  Loop(std::vector<std::string> names, std::function<double(int, long long)> f,
       double noise = 0.05, long long interval = 500, bool tuning = true)
      : choice(std::move(names), tuning, options(interval)),
        factor(std::move(f)), noise(noise) {}

  static OnlineTunerOptions options(long long interval) {
    Environment env;
    env.interval = interval;
    return variantTunerOptions(3, env);
  }

  /// `likeRuntime`: as VariantState::begin calls it, a quiet launch with
  /// next(false) and no times read back; the others read back what is due
  /// before planning.
  void run(long long launches, bool likeRuntime = false) {
    for (long long i = 0; i < launches; ++i) {
      quiet.push_back(choice.nextIsQuiet());
      inForce.push_back(choice.variant());
      searches.push_back(choice.search().searches());
      if (likeRuntime && !quiet.back())
        deliver(call - 1);
      const VariantChoice::Plan plan =
          choice.next(!likeRuntime || !quiet.back());
      const double ms = workload() * factor(plan.variant, call);
      used.push_back(plan.variant);
      timed.push_back(plan.ticket >= 0);
      if (plan.ticket >= 0)
        inFlight.push_back({plan.ticket, ms, call + 2});
      if (!likeRuntime)
        deliver(call);
      ++call;
    }
  }

  long long launchesOf(int variant, long long from, long long to) const {
    long long n = 0;
    for (long long i = from; i < to; ++i)
      n += used[i] == variant;
    return n;
  }

  VariantChoice choice;
  std::vector<int> used;
  std::vector<bool> timed;
  /// Before each launch: nextIsQuiet(), the variant in force, the searches.
  std::vector<bool> quiet;
  std::vector<int> inForce;
  std::vector<long long> searches;

private:
  struct Pending {
    long long ticket;
    double ms;
    long long due;
  };
  /// Records the times due by launch \p by.
  void deliver(long long by) {
    while (!inFlight.empty() && inFlight.front().due <= by) {
      choice.record(inFlight.front().ticket, inFlight.front().ms);
      inFlight.pop_front();
    }
  }
  double workload() {
    // xorshift: a reproducible workload per call.
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return 1 - noise + 2 * noise * double(state % 10000) / 10000.0;
  }

  std::function<double(int, long long)> factor;
  double noise;
  uint64_t state = 88172645463325252ULL;
  long long call = 0;
  std::deque<Pending> inFlight;
};

const std::vector<std::string> kNames = {"original", "dynamic", "fine"};

} // namespace

TEST(VariantChoice, OptionsCoverEveryVariantAndTheInterval) {
  Environment env;
  env.interval = 123;
  const OnlineTunerOptions o = variantTunerOptions(3, env);
  EXPECT_EQ(o.candidates, (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(o.recheckAll);
  EXPECT_EQ(o.recheckInterval, 123);
  EXPECT_EQ(o.warmupCalls, 0);
  EXPECT_EQ(variantTunerOptions(2, Environment()).recheckInterval,
            OnlineTunerOptions().recheckInterval);
}

TEST(VariantChoice, LaunchesEachVariantOnceUntimedFirst) {
  Loop loop(kNames, [](int, long long) { return 1.0; });
  loop.run(3);
  EXPECT_EQ(loop.used, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(loop.timed, (std::vector<bool>{false, false, false}));
}

TEST(VariantChoice, SettlesOnTheFastest) {
  const double cost[] = {1.0, 0.8, 0.5};
  Loop loop(kNames, [&](int v, long long) { return cost[v]; });
  loop.run(300);
  EXPECT_TRUE(loop.choice.search().settled());
  EXPECT_EQ(loop.choice.variant(), 2);
  // After the search, every launch runs it.
  EXPECT_EQ(loop.launchesOf(2, 100, 300), 200);
}

TEST(VariantChoice, CutsAFarSlowerVariantAfterOneLaunch) {
  const double cost[] = {1.0, 3.0, 0.9};
  Loop loop(kNames, [&](int v, long long) { return cost[v]; });
  loop.run(200);
  // The warm-up launch and one timed launch of the first search.
  EXPECT_EQ(loop.launchesOf(1, 0, 200), 2);
  EXPECT_EQ(loop.choice.variant(), 2);
}

TEST(VariantChoice, FollowsTheDataWhenItChanges) {
  // Imbalanced at first (the balanced kernel wins), balanced later (the
  // original wins), as 3DGS training goes.
  const long long change = 3000;
  Loop loop(kNames, [&](int v, long long call) {
    if (call < change)
      return v == 2 ? 0.4 : 1.0;
    return v == 0 ? 1.0 : 1.6;
  });
  loop.run(change);
  EXPECT_EQ(loop.choice.variant(), 2);
  loop.run(4000);
  EXPECT_EQ(loop.choice.variant(), 0);
  EXPECT_GE(loop.choice.search().moves(), 1);
  // Once moved, it stays: the last 2000 launches run the original but for
  // the re-checks' few launches of the others.
  EXPECT_GE(loop.launchesOf(0, 5000, 7000), 1980);
}

TEST(VariantChoice, StaysPutAmongNearEqualVariants) {
  Loop loop(
      kNames, [](int v, long long) { return v == 1 ? 1.0 : 1.003; }, 0.05, 200);
  loop.run(20000);
  EXPECT_LE(loop.choice.search().moves(), 1);
  // Re-checks back off: far fewer than one per 200 launches.
  EXPECT_LT(loop.choice.search().searches(), 20000 / 200 / 2);
}

TEST(VariantChoice, AQuietLaunchRunsTheVariantInForceUntimed) {
  // What lets a launch skip its CUDA calls: a launch said to be quiet is
  // planned as if it could not be timed, and starts no search.
  const long long change = 3000;
  Loop loop(
      kNames,
      [&](int v, long long call) {
        if (call < change)
          return v == 2 ? 0.4 : 1.0;
        return v == 0 ? 1.0 : 1.6;
      },
      0.05, 300);
  loop.run(8000);
  long long quiet = 0;
  for (size_t i = 0; i < loop.used.size(); ++i) {
    if (!loop.quiet[i])
      continue;
    ++quiet;
    EXPECT_FALSE(loop.timed[i]) << "launch " << i;
    EXPECT_EQ(loop.used[i], loop.inForce[i]) << "launch " << i;
    const long long after = i + 1 < loop.used.size()
                                ? loop.searches[i + 1]
                                : loop.choice.search().searches();
    EXPECT_EQ(after, loop.searches[i]) << "launch " << i;
  }
  // Settled, all but the samples (one in 32) and the re-checks are quiet.
  EXPECT_GT(quiet, 8000 * 8 / 10);
  EXPECT_GE(loop.choice.search().moves(), 1);
}

TEST(VariantChoice, SkippingQuietLaunchesChangesNoDecision) {
  // The runtime plans a quiet launch untimed and reads no times back there:
  // the same launches, timed the same, searches the same.
  auto factor = [](int v, long long call) {
    if (call < 3000)
      return v == 2 ? 0.4 : 1.0;
    return v == 0 ? 1.0 : 1.6;
  };
  Loop every(kNames, factor, 0.05, 300), runtime(kNames, factor, 0.05, 300);
  every.run(8000);
  runtime.run(8000, /*likeRuntime=*/true);
  EXPECT_EQ(runtime.used, every.used);
  EXPECT_EQ(runtime.timed, every.timed);
  EXPECT_EQ(runtime.searches, every.searches);
  EXPECT_GE(runtime.choice.search().moves(), 1);
}

TEST(VariantChoice, WithoutTuningEveryLaunchIsQuiet) {
  Loop loop(
      kNames, [](int, long long) { return 1.0; }, 0.05, 500,
      /*tuning=*/false);
  loop.run(100);
  for (bool q : loop.quiet)
    EXPECT_TRUE(q);
}

TEST(VariantChoice, WithoutTuningKeepsTheDefault) {
  Loop loop(
      kNames, [](int v, long long) { return v == 0 ? 2.0 : 1.0; }, 0.05, 500,
      /*tuning=*/false);
  loop.run(1000);
  EXPECT_EQ(loop.launchesOf(0, 0, 1000), 1000);
  for (bool t : loop.timed)
    EXPECT_FALSE(t);
  EXPECT_NE(loop.choice.reportLine("render").find("\"how\": \"default\""),
            std::string::npos);
}

TEST(VariantChoice, ReportsTheChoiceAndTheLastSearch) {
  const double cost[] = {1.0, 3.0, 0.5};
  Loop loop(kNames, [&](int v, long long) { return cost[v]; });
  loop.run(400);
  const std::string line = loop.choice.reportLine("render \"fwd\"");
  EXPECT_NE(line.find("\"choice\": \"render \\\"fwd\\\"\""), std::string::npos)
      << line;
  EXPECT_NE(line.find("\"variants\": [\"original\", \"dynamic\", \"fine\"]"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("\"variant\": \"fine\", \"how\": \"tuned\""),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("\"calls\": 400"), std::string::npos) << line;
  EXPECT_NE(line.find("\"dynamic\": {\"ms\": "), std::string::npos) << line;
  EXPECT_NE(line.find("\"dropped\": true"), std::string::npos) << line;
  EXPECT_EQ(line.back(), '}');
}
