//===- LaunchScheduleTest.cpp - The host steps of a wrapped launch --------===//
//
// A simulated device takes the steps the schedule asks for, as
// distwar/launch.h does with CUDA: threshold writes, reading back timed
// launches (one event query per launch in flight), timing. Times come back a
// few launches later. The tests count the steps per launch in each state, and
// check that the schedule leaves the tuner's decisions as they were when
// every launch read back every timed launch.
//
//===----------------------------------------------------------------------===//

#include "distwar/launch_schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <vector>

using namespace distwar;
using distwar::detail::LaunchSchedule;

namespace {

/// A 3DGS-like landscape: best at 12, plain atomics three times slower.
double bowl(int t) {
  if (t >= 33)
    return 3.0;
  return 1.0 + 0.004 * (t - 12) * (t - 12);
}

/// Workloads that vary from launch to launch (another camera), the same
/// sequence for every simulation.
class Workloads {
public:
  explicit Workloads(double noise) : noise(noise) {}
  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
    return 1 - noise + 2 * noise * u;
  }

private:
  double noise;
  uint64_t state = 12345;
};

/// What one launch did.
struct Taken {
  bool write = false;
  /// Event queries (reading back, one per timed launch in flight).
  int queries = 0;
  bool timed = false;
  /// The table's threshold when the kernel ran.
  int threshold = 0;
};

class Device {
public:
  static constexpr int kPairs = 16;

  explicit Device(OnlineTunerOptions options = OnlineTunerOptions(),
                  double noise = 0.0, int delay = 2)
      : schedule(options, 7), work(noise), delay(delay) {}

  Taken launch(bool passive = false) {
    Taken taken;
    if (schedule.collectsFirst(sites) && !inFlight.empty())
      taken.queries += collect();
    const LaunchSchedule::Steps steps =
        schedule.plan(sites, passive, freePairs, inFlight.size());
    if (steps.write) {
      taken.write = true;
      if (steps.threshold >= 0)
        table = steps.threshold;
      schedule.written(steps, sites);
    }
    if (steps.ticket != -1) {
      if (steps.collect)
        taken.queries += collect();
      if (freePairs == 0) {
        schedule.forget(steps.ticket);
      } else {
        --freePairs;
        inFlight.push_back(
            {steps.ticket, work.next() * bowl(table), call + delay});
        taken.timed = true;
      }
    }
    taken.threshold = table;
    ++call;
    return taken;
  }

  /// Launches until the tuner settles; the count, or -1 past `limit`.
  long long settle(long long limit = 2000) {
    for (long long i = 0; i < limit; ++i) {
      if (schedule.tuner().settled())
        return i;
      launch();
    }
    return -1;
  }

  LaunchSchedule schedule;
  LaunchSchedule::Sites sites{/*tuned=*/true, /*generation=*/0};
  int freePairs = kPairs;
  int table = 0;

private:
  struct Pending {
    long long ticket;
    double ms;
    long long due;
  };

  /// Reads back every launch in flight that is done; the event queries.
  int collect() {
    int queries = 0;
    std::deque<Pending> kept;
    for (const Pending &p : inFlight) {
      ++queries;
      if (p.due > call) {
        kept.push_back(p);
        continue;
      }
      ++freePairs;
      schedule.record(p.ticket, p.ms);
    }
    inFlight.swap(kept);
    return queries;
  }

  Workloads work;
  int delay;
  long long call = 0;
  std::deque<Pending> inFlight;
};

/// Steps summed over launches.
struct Totals {
  int writes = 0;
  int queries = 0;
  int timed = 0;
  int launches = 0;
  void add(const Taken &t) {
    writes += t.write ? 1 : 0;
    queries += t.queries;
    timed += t.timed ? 1 : 0;
    ++launches;
  }
};

Totals run(Device &d, int launches, bool passive = false) {
  Totals totals;
  for (int i = 0; i < launches; ++i)
    totals.add(d.launch(passive));
  return totals;
}

} // namespace

TEST(LaunchSchedule, SettledLaunchesTakeNoStepsButTheSample) {
  OnlineTunerOptions o;
  o.recheckInterval = 1 << 20;
  Device d(o);
  ASSERT_GT(d.settle(), 0);
  const Totals t = run(d, 3200);
  EXPECT_EQ(t.writes, 0);
  // One launch in 32 is timed and reads back the one before it: one query.
  EXPECT_EQ(t.timed, 100);
  EXPECT_LE(t.queries, 100 + Device::kPairs);
  EXPECT_EQ(d.table, 12);
}

TEST(LaunchSchedule, SettledLaunchesBetweenSamplesTakeNone) {
  OnlineTunerOptions o;
  o.recheckInterval = 1 << 20;
  Device d(o);
  ASSERT_GT(d.settle(), 0);
  run(d, 64);
  for (int i = 0; i < 320; ++i) {
    const Taken t = d.launch();
    if (t.timed)
      continue;
    EXPECT_FALSE(t.write) << i;
    EXPECT_EQ(t.queries, 0) << i;
  }
}

TEST(LaunchSchedule, ASearchReadsBackAtEveryLaunch) {
  Device d(OnlineTunerOptions(), 0.0, /*delay=*/3);
  run(d, 4); // warm-up, then the first timed launches
  ASSERT_FALSE(d.schedule.tuner().settled());
  int launchesWithQueries = 0;
  int launches = 0;
  while (!d.schedule.tuner().settled() && launches < 2000) {
    launchesWithQueries += d.launch().queries > 0 ? 1 : 0;
    ++launches;
  }
  ASSERT_TRUE(d.schedule.tuner().settled());
  // Times are always in flight while it searches (they come 3 launches
  // late), so every launch queries.
  EXPECT_EQ(launchesWithQueries, launches);
}

TEST(LaunchSchedule, WritesOnlyWhenTheThresholdChanges) {
  Device d;
  int writes = 0, changes = 0;
  for (int i = 0; i < 3000; ++i) {
    const int before = d.table;
    const Taken t = d.launch();
    writes += t.write ? 1 : 0;
    changes += t.threshold != before ? 1 : 0;
    if (i == 0) {
      EXPECT_TRUE(t.write) << "the first launch writes the environment's";
    }
  }
  // The first write leaves the tuned sites alone (warm-up), then one per
  // change.
  EXPECT_EQ(writes, changes + 1);
  EXPECT_TRUE(d.schedule.tuner().settled());
}

TEST(LaunchSchedule, ASetterOrKernelTunerWriteMeansWritingAgain) {
  Device d;
  ASSERT_GT(d.settle(), 0);
  run(d, 10);
  ++d.sites.generation;
  EXPECT_TRUE(d.launch().write);
  EXPECT_FALSE(d.launch().write);
}

TEST(LaunchSchedule, PassiveLaunchesOnlyCount) {
  Device d;
  const Totals t = run(d, 500, /*passive=*/true);
  EXPECT_EQ(t.writes + t.queries + t.timed, 0);
  EXPECT_EQ(d.schedule.tuner().callCount(), 0);
}

TEST(LaunchSchedule, WithoutTuningOneLaunchIn32IsTimed) {
  Device d;
  d.sites.tuned = false;
  const Totals t = run(d, 3200);
  EXPECT_EQ(t.writes, 1); // the environment's values, once
  EXPECT_EQ(t.timed, 100);
  EXPECT_LE(t.queries, 100);
  EXPECT_EQ(d.table, 0);
  EXPECT_EQ(d.schedule.tuner().callCount(), 0);
  EXPECT_EQ(d.schedule.reportSampleCount(), 99);
  EXPECT_NEAR(d.schedule.reportSampleMs(), 99 * bowl(0), 1e-9);
}

TEST(LaunchSchedule, FrozenStopsTheSearchAndSamples) {
  Device d;
  run(d, 20); // searching
  ASSERT_FALSE(d.schedule.tuner().settled());
  const int leading = d.schedule.tuner().threshold();
  d.schedule.freeze();
  // The times still in flight come in as soon as they are done: they may
  // change the leader; nothing else does.
  EXPECT_TRUE(d.schedule.collectsFirst(d.sites));
  const long long searched = d.schedule.tuner().callCount();
  EXPECT_EQ(d.launch().threshold, leading);
  const Totals t = run(d, 639);
  EXPECT_EQ(d.schedule.tuner().callCount(), searched);
  EXPECT_EQ(d.table, d.schedule.tuner().threshold());
  EXPECT_EQ(t.timed, 20);
}

TEST(LaunchSchedule, FrozenWhileSettledTakesNoStepsButTheSample) {
  Device d;
  ASSERT_GT(d.settle(), 0);
  d.schedule.freeze();
  EXPECT_FALSE(d.schedule.collectsFirst(d.sites));
  const Totals t = run(d, 3200);
  EXPECT_EQ(t.writes, 0);
  EXPECT_EQ(t.timed, 100);
  EXPECT_LE(t.queries, 100 + Device::kPairs);
  EXPECT_EQ(d.table, 12);
}

TEST(LaunchSchedule, TimesOnlyWithAPairThatMayBeFree) {
  LaunchSchedule s(OnlineTunerOptions(), 7);
  const LaunchSchedule::Sites sites{/*tuned=*/true, /*generation=*/0};
  s.plan(sites, false, 16, 0); // warm-up
  s.plan(sites, false, 16, 0);
  ASSERT_TRUE(s.collectsFirst(sites));
  // Searching, the launches in flight were read back first: not done.
  EXPECT_EQ(s.plan(sites, false, 0, 16).ticket, -1);
  EXPECT_GE(s.plan(sites, false, 1, 15).ticket, 0);

  Device d;
  ASSERT_GT(d.settle(), 0);
  // Settled, the sample's launch reads back first: one may be done.
  bool sampled = false;
  for (int i = 0; i < 64 && !sampled; ++i) {
    const LaunchSchedule::Steps steps =
        d.schedule.plan(d.sites, false, /*freePairs=*/0, /*pairsInFlight=*/1);
    if (steps.ticket == -1)
      continue;
    sampled = true;
    EXPECT_TRUE(steps.collect);
    d.schedule.forget(steps.ticket);
  }
  EXPECT_TRUE(sampled);
}

TEST(LaunchSchedule, ReChecksReadBackWhileTheyRun) {
  OnlineTunerOptions o;
  o.recheckInterval = 100;
  Device d(o);
  ASSERT_GT(d.settle(), 0); // its launch counts as the first settled one
  run(d, 99);
  EXPECT_FALSE(d.schedule.collectsFirst(d.sites));
  d.launch(); // the re-check begins
  EXPECT_TRUE(d.schedule.collectsFirst(d.sites));
  ASSERT_GT(d.settle(), 0);
  EXPECT_FALSE(d.schedule.collectsFirst(d.sites));
  EXPECT_EQ(d.schedule.tuner().searches(), 2);
  EXPECT_EQ(d.table, 12);
}

// Reading back only where needed changes when settled samples arrive, never
// what the tuner decides: the same launches run at the same thresholds as
// when every launch read back every timed launch (the tuner driven alone).
TEST(LaunchSchedule, SameDecisionsAsReadingBackEveryLaunch) {
  OnlineTunerOptions o;
  o.recheckInterval = 300;
  const double noise = 0.2;
  const int delay = 2, launches = 6000;

  std::vector<int> alone;
  {
    OnlineTuner tuner(o, 7);
    Workloads work(noise);
    struct Pending {
      long long ticket;
      double ms;
      long long due;
    };
    std::deque<Pending> inFlight;
    int table = 0;
    for (long long call = 0; call < launches; ++call) {
      std::deque<Pending> kept;
      for (const Pending &p : inFlight) {
        if (p.due > call)
          kept.push_back(p);
        else
          tuner.record(p.ticket, p.ms);
      }
      inFlight.swap(kept);
      const OnlineTuner::Plan p = tuner.next(true);
      if (p.threshold >= 0)
        table = p.threshold;
      if (p.ticket >= 0)
        inFlight.push_back({p.ticket, work.next() * bowl(table), call + delay});
      alone.push_back(table);
    }
  }

  Device d(o, noise, delay);
  std::vector<int> scheduled;
  for (int i = 0; i < launches; ++i)
    scheduled.push_back(d.launch().threshold);

  ASSERT_EQ(alone.size(), scheduled.size());
  int first = -1;
  for (size_t i = 0; i < alone.size() && first < 0; ++i)
    if (alone[i] != scheduled[i])
      first = static_cast<int>(i);
  EXPECT_EQ(first, -1) << "launch " << first << ": " << alone[first] << " vs "
                       << scheduled[first];
  EXPECT_GE(d.schedule.tuner().searches(), 3);
}

TEST(LaunchSchedule, SearchingUntilSettledThenDuringRechecks) {
  OnlineTunerOptions o;
  o.recheckInterval = 200;
  Device d(o);
  EXPECT_FALSE(d.schedule.searching()) << "no launch yet";
  d.launch();
  EXPECT_TRUE(d.schedule.searching()) << "warm-up and search";
  ASSERT_GT(d.settle(), 0);
  EXPECT_FALSE(d.schedule.searching());
  bool rechecked = false;
  for (int i = 0; i < 400 && !rechecked; ++i) {
    d.launch();
    rechecked = d.schedule.searching();
  }
  EXPECT_TRUE(rechecked) << "a re-check is a search";
}

TEST(LaunchSchedule, NotSearchingWhatNothingTunesOrAfterAFreeze) {
  Device untuned;
  untuned.sites.tuned = false;
  run(untuned, 10);
  EXPECT_FALSE(untuned.schedule.searching());
  Device frozen;
  run(frozen, 10);
  ASSERT_TRUE(frozen.schedule.searching());
  frozen.schedule.freeze();
  EXPECT_FALSE(frozen.schedule.searching());
}
