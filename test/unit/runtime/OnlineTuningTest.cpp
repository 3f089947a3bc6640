//===- OnlineTuningTest.cpp - The zero-code tuner's state machine ---------===//
//
// A simulated program: every launch has a workload that varies from call to
// call (another camera) and a cost factor per threshold; times come back a
// few launches later, as CUDA events read without a sync do.
//
//===----------------------------------------------------------------------===//

#include "distwar/online_tuning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <set>

using namespace distwar;

namespace {

class Simulation {
public:
  /// `factor(threshold, call)`: cost of a launch at that threshold relative
  /// to the workload; `noise`: the workload varies in [1-noise, 1+noise].
  Simulation(OnlineTunerOptions options,
             std::function<double(int, long long)> factor, double noise,
             int delay = 2, uint64_t seed = 7)
      : tuner(std::move(options), seed), factor(std::move(factor)),
        noise(noise), delay(delay) {}

  void run(long long launches, bool canTime = true) {
    for (long long i = 0; i < launches; ++i) {
      const OnlineTuner::Plan plan = tuner.next(canTime);
      if (plan.threshold >= 0)
        table = plan.threshold;
      const double ms = workload() * factor(table, call);
      used.push_back(table);
      costs.push_back(ms);
      ideal.push_back(ms / factor(table, call) * best(call));
      if (plan.ticket >= 0)
        inFlight.push_back({plan.ticket, ms, call + delay});
      while (!inFlight.empty() && inFlight.front().due <= call) {
        if (dropTickets.count(inFlight.front().ticket))
          tuner.forget(inFlight.front().ticket);
        else
          tuner.record(inFlight.front().ticket, inFlight.front().ms);
        inFlight.pop_front();
      }
      ++call;
    }
  }

  long long launchesAt(int threshold, long long from = 0) const {
    long long n = 0;
    for (size_t i = from; i < used.size(); ++i)
      n += used[i] == threshold ? 1 : 0;
    return n;
  }
  /// Time spent beyond the best threshold, in launches of the best one.
  double waste(long long from, long long to) const {
    double extra = 0, base = 0;
    for (long long i = from; i < to; ++i) {
      extra += costs[i] - ideal[i];
      base += ideal[i];
    }
    return extra / (base / (to - from));
  }

  OnlineTuner tuner;
  std::set<long long> dropTickets;
  std::vector<int> used;
  int table = 0;

private:
  struct Pending {
    long long ticket;
    double ms;
    long long due;
  };
  double workload() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
    return 1 - noise + 2 * noise * u;
  }
  double best(long long c) const {
    double b = factor(1, c);
    for (int t = 1; t <= kBlockStrategy; ++t)
      b = std::min(b, factor(t, c));
    for (int t = 1; t < kNeverReduce; ++t)
      b = std::min(b, factor(kSerialForm | t, c));
    return b;
  }

  std::function<double(int, long long)> factor;
  double noise;
  int delay;
  uint64_t state = 12345;
  long long call = 0;
  std::deque<Pending> inFlight;
  std::vector<double> costs, ideal;
};

/// A 3DGS-like landscape: best at 12, plain atomics three times slower.
double bowl(int t, long long) {
  if (t >= 33)
    return 3.0;
  return 1.0 + 0.004 * (t - 12) * (t - 12);
}

long long settleCall(Simulation &sim, long long limit) {
  for (long long i = 0; i < limit; ++i) {
    if (sim.tuner.settled())
      return i;
    sim.run(1);
  }
  return -1;
}

} // namespace

TEST(OnlineTuner, WarmupLeavesTheTableAlone) {
  OnlineTunerOptions o;
  o.warmupCalls = 3;
  OnlineTuner tuner(o);
  for (int i = 0; i < 3; ++i) {
    const OnlineTuner::Plan p = tuner.next(true);
    EXPECT_EQ(p.threshold, -1);
    EXPECT_EQ(p.ticket, -1);
  }
  EXPECT_EQ(tuner.phase(), OnlineTuner::Phase::kWarmup);
  const OnlineTuner::Plan p = tuner.next(true);
  EXPECT_EQ(tuner.phase(), OnlineTuner::Phase::kSearching);
  EXPECT_GE(p.ticket, 0);
  EXPECT_GE(p.threshold, 1);
}

TEST(OnlineTuner, FindsTheFastestThroughWorkloadNoise) {
  Simulation sim(OnlineTunerOptions(), bowl, /*noise=*/0.2);
  const long long settled = settleCall(sim, 1000);
  ASSERT_GT(settled, 0);
  const int t = sim.tuner.threshold();
  // 8, 12 and 16 are within 6.4% of each other: noise of +-20% per launch
  // cannot always tell them apart; anything else is a mistake.
  EXPECT_TRUE(t == 8 || t == 12 || t == 16) << t;
  EXPECT_LT(bowl(t, 0), 1.07);
  // The expensive candidates run once each: cut after the first round.
  EXPECT_EQ(sim.launchesAt(33), 1);
  EXPECT_EQ(sim.launchesAt(32), 1);
  // The whole search costs about ten launches' worth of time (most of it
  // one launch each at 28, 32 and 33), once per program: under 0.1% of a
  // 3000-iteration training run whose backward pass is a fifth of it.
  EXPECT_LT(sim.waste(0, settled), 12.0);
  EXPECT_LE(settled, 2 + 10 * 12 + 4);
}

TEST(OnlineTuner, ExactTimesSettleOnTheBest) {
  Simulation sim(OnlineTunerOptions(), bowl, /*noise=*/0.0);
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.threshold(), 12);
  // Settled: every launch at 12.
  sim.run(500);
  EXPECT_EQ(sim.launchesAt(12, sim.used.size() - 500), 500);
}

TEST(OnlineTuner, NoTimingNoProgress) {
  OnlineTuner tuner;
  for (int i = 0; i < 1000; ++i) {
    const OnlineTuner::Plan p = tuner.next(false);
    EXPECT_EQ(p.ticket, -1);
    EXPECT_EQ(p.threshold, -1);
  }
  EXPECT_EQ(tuner.phase(), OnlineTuner::Phase::kSearching);
  EXPECT_EQ(tuner.timedCount(), 0);
}

TEST(OnlineTuner, LateTimesDoNotOverIssue) {
  OnlineTunerOptions o;
  Simulation sim(o, bowl, 0.1, /*delay=*/40);
  ASSERT_GT(settleCall(sim, 3000), 0);
  // No candidate ran more often than the search's rounds.
  for (const OnlineTuner::CandidateStats &c : sim.tuner.lastSearch())
    EXPECT_LE(c.samples, o.maxRounds) << c.threshold;
  EXPECT_EQ(sim.launchesAt(33), 1);
}

TEST(OnlineTuner, ForgottenTimesAreTakenAgain) {
  Simulation sim(OnlineTunerOptions(), bowl, 0.0);
  // The first four tickets (first-round launches) never come back.
  for (long long t = 0; t < 4; ++t)
    sim.dropTickets.insert(t);
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.threshold(), 12);
  for (const OnlineTuner::CandidateStats &c : sim.tuner.lastSearch())
    EXPECT_GE(c.samples, 1) << c.threshold;
}

TEST(OnlineTuner, SampledWhileSettled) {
  OnlineTunerOptions o;
  o.sampleEvery = 32;
  o.recheckInterval = 1 << 20;
  Simulation sim(o, bowl, 0.0);
  ASSERT_GT(settleCall(sim, 1000), 0);
  sim.run(320);
  // One launch in 32 timed; the last one's time is still in flight.
  EXPECT_EQ(sim.tuner.settledSampleCount(), 9);
  EXPECT_NEAR(sim.tuner.settledMeanMs(), 1.0, 1e-12);
}

TEST(OnlineTuner, RechecksAroundTheThresholdAtTheInterval) {
  OnlineTunerOptions o;
  o.recheckInterval = 100;
  Simulation sim(o, bowl, 0.0);
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.searches(), 1);
  sim.run(100);
  EXPECT_TRUE(sim.tuner.settled());
  sim.run(1);
  EXPECT_FALSE(sim.tuner.settled());
  EXPECT_EQ(sim.tuner.searches(), 2);
  std::vector<int> around;
  for (const OnlineTuner::CandidateStats &c : sim.tuner.lastSearch())
    around.push_back(c.threshold);
  EXPECT_EQ(around, (std::vector<int>{8, 10, 12, 14, 16}));
  ASSERT_GT(settleCall(sim, 1000), 0);
  // Kept: the next re-check comes after twice the interval.
  EXPECT_EQ(sim.tuner.threshold(), 12);
  EXPECT_EQ(sim.tuner.moves(), 0);
  EXPECT_EQ(sim.tuner.currentInterval(), 200);
}

TEST(OnlineTuner, NoiseAloneRarelyMovesIt) {
  // Every threshold but plain atomics costs the same; launches vary by
  // +-25%. Over ten programs of 20000 launches each, re-checks (about 25
  // per program) seldom take noise for a gain.
  OnlineTunerOptions o;
  o.recheckInterval = 100;
  int moves = 0, rechecks = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Simulation sim(
        o, [](int t, long long) { return t >= 33 ? 3.0 : 1.0; }, 0.25, 2, seed);
    sim.run(20000);
    moves += sim.tuner.moves();
    rechecks += sim.tuner.searches() - 1;
  }
  std::printf("%d moves in %d re-checks\n", moves, rechecks);
  EXPECT_GE(rechecks, 200);
  EXPECT_LE(moves, 3);
}

TEST(OnlineTuner, FollowsTheSceneAsItChanges) {
  OnlineTunerOptions o;
  o.recheckInterval = 200;
  // Training moves the best threshold from 12 to 24 at launch 2000.
  auto shifting = [](int t, long long call) {
    if (t >= 33)
      return 3.0;
    const int best = call < 2000 ? 12 : 24;
    return 1.0 + 0.01 * (t - best) * (t - best);
  };
  Simulation sim(o, shifting, 0.1);
  sim.run(2000);
  EXPECT_NEAR(sim.tuner.threshold(), 12, 2);
  sim.run(20000);
  EXPECT_NEAR(sim.tuner.threshold(), 24, 2);
  EXPECT_GE(sim.tuner.moves(), 2);
}

TEST(OnlineTuner, SameSeedSamePlans) {
  auto plans = [](uint64_t seed) {
    Simulation sim(OnlineTunerOptions(), bowl, 0.2, 2, seed);
    sim.run(300);
    return sim.used;
  };
  EXPECT_EQ(plans(3), plans(3));
  EXPECT_NE(plans(3), plans(4));
}

TEST(OnlineTuner, StaleTimesAreIgnored) {
  OnlineTuner tuner;
  tuner.next(true);
  tuner.next(true);
  const OnlineTuner::Plan p = tuner.next(true);
  ASSERT_GE(p.ticket, 0);
  tuner.record(p.ticket, 1.0);
  tuner.record(p.ticket, 1.0); // twice: the second is unknown
  tuner.record(12345, 1.0);    // never issued
  EXPECT_EQ(tuner.timedCount(), 1);
}

TEST(OnlineTuner, ExhaustiveCandidates) {
  OnlineTunerOptions o;
  o.candidates = OnlineTunerOptions::allThresholds();
  ASSERT_EQ(o.candidates.size(), 33u);
  Simulation sim(o, bowl, 0.0);
  ASSERT_GT(settleCall(sim, 3000), 0);
  EXPECT_EQ(sim.tuner.threshold(), 12);
  const std::vector<int> withBlock = OnlineTunerOptions::allThresholds(true);
  ASSERT_EQ(withBlock.size(), 34u);
  EXPECT_EQ(withBlock.back(), kBlockStrategy);
}

namespace {

/// The candidates of a launch that reads a block-capable site.
OnlineTunerOptions withBlockStrategy() {
  OnlineTunerOptions o;
  o.candidates.push_back(kBlockStrategy);
  return o;
}

/// The bowl, with the block strategy at `block` times the workload.
std::function<double(int, long long)> bowlAndBlock(double block) {
  return [block](int t, long long call) {
    return t == kBlockStrategy ? block : bowl(t, call);
  };
}

std::vector<int> candidatesOf(const OnlineTuner &tuner) {
  std::vector<int> out;
  for (const OnlineTuner::CandidateStats &c : tuner.lastSearch())
    out.push_back(c.threshold);
  return out;
}

} // namespace

TEST(OnlineTuner, TheBlockStrategyWinsWhereItIsFaster) {
  OnlineTunerOptions o = withBlockStrategy();
  o.recheckInterval = 100;
  Simulation sim(o, bowlAndBlock(0.6), /*noise=*/0.0);
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.threshold(), kBlockStrategy);
  EXPECT_EQ(sim.tuner.warpThreshold(), 12);
  // The re-check steps around the best warp threshold, never from 34 into
  // 30 or 32, and keeps the block strategy to the end.
  sim.run(101);
  ASSERT_FALSE(sim.tuner.settled());
  EXPECT_EQ(candidatesOf(sim.tuner), (std::vector<int>{8, 10, 12, 14, 16, 34}));
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.threshold(), kBlockStrategy);
  EXPECT_EQ(sim.tuner.moves(), 0);
}

TEST(OnlineTuner, TheBlockStrategyGoesWhereItRunsAsPlainAtomics) {
  // A launch whose block site gains nothing: 34 costs what 33 costs, and
  // leaves after the first round, as plain atomics do.
  OnlineTunerOptions o = withBlockStrategy();
  o.recheckInterval = 100;
  Simulation sim(o, bowlAndBlock(3.0), /*noise=*/0.0);
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.threshold(), 12);
  EXPECT_EQ(sim.launchesAt(kBlockStrategy), 1);
  // Re-checks still time it: the scene may change.
  sim.run(101);
  EXPECT_EQ(candidatesOf(sim.tuner), (std::vector<int>{8, 10, 12, 14, 16, 34}));
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.threshold(), 12);
}

TEST(OnlineTuner, MovesBetweenTheStrategiesAsTheSceneChanges) {
  OnlineTunerOptions o = withBlockStrategy();
  o.recheckInterval = 200;
  // The block strategy is best until launch 3000, then twice as slow as
  // the best warp threshold, which moves from 12 to 20.
  auto shifting = [](int t, long long call) {
    if (t == kBlockStrategy)
      return call < 3000 ? 0.7 : 2.0;
    if (t >= 33)
      return 3.0;
    const int best = call < 3000 ? 12 : 20;
    return 1.0 + 0.01 * (t - best) * (t - best);
  };
  Simulation sim(o, shifting, 0.05);
  sim.run(3000);
  EXPECT_EQ(sim.tuner.threshold(), kBlockStrategy);
  sim.run(20000);
  // The re-checks at 34 follow the warp optimum (each one steps around the
  // fastest warp threshold of the last), so one move can reach it.
  EXPECT_NEAR(sim.tuner.threshold(), 20, 2);
  EXPECT_GE(sim.tuner.moves(), 1);
}

TEST(OnlineTuner, CandidatesAreWarpThresholdsOrTheBlockStrategy) {
  OnlineTunerOptions o;
  o.warmupCalls = 0;
  o.candidates = {0, 35, 34, 40};
  OnlineTuner tuner(o);
  // 0 behaves as 1; values above 34 are taken as plain atomics.
  EXPECT_EQ(candidatesOf(tuner), (std::vector<int>{1, 33, 34}));
}

TEST(OnlineTuner, RechecksNearPlainAtomicsStayBelowTheBlockStrategy) {
  OnlineTunerOptions o;
  o.recheckInterval = 100;
  Simulation sim(
      o, [](int t, long long) { return 1.0 + 0.01 * std::abs(t - 33); }, 0.0);
  ASSERT_GT(settleCall(sim, 1000), 0);
  EXPECT_EQ(sim.tuner.threshold(), 33);
  sim.run(101);
  EXPECT_EQ(candidatesOf(sim.tuner), (std::vector<int>{29, 31, 33}));
}

namespace {

/// A launch with a two-form site: the butterfly's bowl, and the serial
/// form's, best at `serialBest` where it costs `serialMin` of the workload.
std::function<double(int, long long)> twoBowls(int serialBest,
                                               double serialMin) {
  return [=](int t, long long call) {
    if (!asksSerialForm(t))
      return bowl(t, call);
    const int s = thresholdOf(t);
    return serialMin + 0.004 * (s - serialBest) * (s - serialBest);
  };
}

OnlineTunerOptions withForms() {
  OnlineTunerOptions o;
  o.candidates = withSerialForm(o.candidates);
  return o;
}

} // namespace

TEST(OnlineTuner, TheSerialFormIsSearchedWithTheThresholds) {
  const OnlineTunerOptions o = withForms();
  EXPECT_EQ(o.candidates,
            (std::vector<int>{1, 4, 8, 12, 16, 20, 24, 28, 32, 33, 65, 68, 72,
                              76, 80, 84, 88, 92, 96}));
  // Serial at 8 is the fastest: the one search finds form and threshold.
  Simulation sim(o, twoBowls(8, 0.9), /*noise=*/0.02);
  ASSERT_GT(settleCall(sim, 3000), 0);
  EXPECT_EQ(sim.tuner.threshold(), kSerialForm | 8);
  // Where the butterfly is faster, it stays.
  Simulation butterfly(o, twoBowls(8, 1.2), /*noise=*/0.02);
  ASSERT_GT(settleCall(butterfly, 3000), 0);
  EXPECT_EQ(butterfly.tuner.threshold(), 12);
}

TEST(OnlineTuner, RechecksTimeTheNeighbourhoodInBothForms) {
  OnlineTunerOptions o = withForms();
  o.recheckInterval = 100;
  Simulation sim(o, twoBowls(8, 0.9), /*noise=*/0.0);
  ASSERT_GT(settleCall(sim, 3000), 0);
  ASSERT_EQ(sim.tuner.threshold(), kSerialForm | 8);
  sim.run(101);
  ASSERT_FALSE(sim.tuner.settled());
  EXPECT_EQ(candidatesOf(sim.tuner),
            (std::vector<int>{68, 70, 72, 74, 76, 4, 6, 8, 10, 12}));
}

TEST(OnlineTuner, MovesBetweenTheFormsAsTheSceneChanges) {
  OnlineTunerOptions o = withForms();
  o.recheckInterval = 200;
  // Serial wins until launch 3000 (few lanes share a key), then the
  // butterfly does (the scene's primitives grew).
  auto shifting = [](int t, long long call) {
    const double serialMin = call < 3000 ? 0.8 : 1.3;
    return twoBowls(8, serialMin)(t, call);
  };
  Simulation sim(o, shifting, 0.05);
  sim.run(3000);
  EXPECT_TRUE(asksSerialForm(sim.tuner.threshold()));
  sim.run(20000);
  EXPECT_FALSE(asksSerialForm(sim.tuner.threshold()));
  EXPECT_NEAR(sim.tuner.threshold(), 12, 2);
  EXPECT_GE(sim.tuner.moves(), 1);
}

TEST(OnlineTuner, SerialFormCandidatesKeepTheirForm) {
  OnlineTunerOptions o;
  o.warmupCalls = 0;
  o.candidates = {kSerialForm, kSerialForm | 40, kSerialForm | 33, 72};
  OnlineTuner tuner(o);
  // serial:0 behaves as serial:1; serial beyond 32 is plain atomics.
  EXPECT_EQ(candidatesOf(tuner), (std::vector<int>{65, 33, 72}));
}
