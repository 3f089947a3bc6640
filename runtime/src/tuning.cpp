//===- tuning.cpp - Threshold autotuning logic ----------------------------===//

#include "distwar/tuning.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace distwar {
namespace {

constexpr int kLowest = 1; // 0 behaves as 1: a call always has a lane

/// Lowest threshold among the fastest; deterministic under ties (so a launch
/// without block sites, where kBlockStrategy runs as plain atomics, keeps 33
/// unless 34 is faster). `warpOnly`: among the warp thresholds alone, the
/// centre of a neighbourhood.
Trial fastest(const std::map<int, double> &measured, bool warpOnly = false) {
  Trial best{-1, 0};
  for (const auto &entry : measured) {
    if (warpOnly && !isWarpThreshold(entry.first))
      continue;
    if (best.threshold < 0 || entry.second < best.ms)
      best = Trial{entry.first, entry.second};
  }
  return best;
}

/// The thresholds of one round around `center` (0..33, either form):
/// itself, +-1, +-2, +-4, within 1..33 and in the centre's form, so never
/// stepping into kBlockStrategy; with `forms`, each also in the other form.
/// None for any other `center`.
std::vector<int> neighbourhood(int center, bool forms) {
  std::vector<int> around;
  const int t = thresholdOf(center);
  if (!isSiteValue(center) || t > kNeverReduce)
    return around;
  for (int d : {0, -1, 1, -2, 2, -4, 4}) {
    if (t + d < kLowest || t + d > kNeverReduce)
      continue;
    const int v = inFormOf(t + d, center);
    for (int w : {v, otherForm(v)})
      if ((w == v || forms) &&
          std::find(around.begin(), around.end(), w) == around.end())
        around.push_back(w);
  }
  return around;
}

/// Times `thresholds` in one call of `measure`, checking that every trial
/// came back.
std::vector<double> measureAll(const MeasureFn &measure,
                               const std::vector<int> &thresholds) {
  std::vector<double> ms = measure(thresholds);
  if (ms.size() != thresholds.size())
    throw std::logic_error("distwar: a trial runner returned " +
                           std::to_string(ms.size()) + " times for " +
                           std::to_string(thresholds.size()) + " trials");
  return ms;
}

} // namespace

TunerOptions
applyEnvironment(TunerOptions options,
                 const std::function<const char *(const char *)> &getEnv) {
  const Environment env = readEnvironment(getEnv);
  if (env.allSites >= 0)
    options.forcedThreshold = env.allSites;
  if (env.autotuneGiven)
    options.enabled = env.autotune;
  if (env.interval > 0)
    options.retuneInterval = env.interval;
  if (env.searchGiven)
    options.mode = env.search;
  return options;
}

SearchResult searchThreshold(SearchMode mode, int coarseStep,
                             const MeasureFn &measure, bool forms) {
  SearchResult result;
  std::map<int, double> measured;
  auto run = [&](const std::vector<int> &thresholds) {
    if (thresholds.empty())
      return;
    const std::vector<double> ms = measureAll(measure, thresholds);
    for (size_t i = 0; i < thresholds.size(); ++i) {
      result.trials.push_back(Trial{thresholds[i], ms[i]});
      measured[thresholds[i]] = ms[i];
    }
  };

  // kBlockStrategy is one more candidate, timed with the first round; the
  // refinement steps through the warp thresholds around the fastest of them.
  if (mode == SearchMode::kExhaustive) {
    std::vector<int> all;
    for (int t = kLowest; t <= kNeverReduce; ++t)
      all.push_back(t);
    if (forms)
      all = withSerialForm(all);
    all.push_back(kBlockStrategy);
    run(all);
  } else {
    const int step = std::max(1, coarseStep);
    std::vector<int> grid;
    for (int t = kLowest; t < kNeverReduce; t += step)
      grid.push_back(t);
    grid.push_back(kNeverReduce);
    if (forms)
      grid = withSerialForm(grid);
    grid.push_back(kBlockStrategy);
    run(grid);
    // The halving stays in the form of the fastest warp threshold.
    for (int s = step / 2; s >= 1; s /= 2) {
      const int center = fastest(measured, /*warpOnly=*/true).threshold;
      std::vector<int> around;
      for (int t : {thresholdOf(center) - s, thresholdOf(center) + s}) {
        if (t < kLowest || t > kNeverReduce)
          continue;
        const int v = inFormOf(t, center);
        if (!measured.count(v))
          around.push_back(v);
      }
      run(around);
    }
  }
  const Trial best = fastest(measured);
  result.best = best.threshold;
  result.bestMs = best.ms;
  return result;
}

SearchResult refineThreshold(int center, const MeasureFn &measure,
                             int warpCenter, bool forms) {
  std::vector<int> around =
      neighbourhood(center == kBlockStrategy ? warpCenter : center, forms);
  if (center == kBlockStrategy)
    around.push_back(kBlockStrategy);
  std::sort(around.begin(), around.end());
  const std::vector<double> ms = measureAll(measure, around);
  SearchResult result;
  std::map<int, double> measured;
  for (size_t i = 0; i < around.size(); ++i) {
    result.trials.push_back(Trial{around[i], ms[i]});
    measured[around[i]] = ms[i];
  }
  const Trial best = fastest(measured);
  result.best = best.threshold;
  result.bestMs = best.ms;
  return result;
}

Autotuner::Autotuner(TunerOptions options) : opts(options) {}

void Autotuner::rememberWarpThreshold(DeviceState &state,
                                      const std::vector<Trial> &trials) {
  std::map<int, double> measured;
  for (const Trial &t : trials)
    measured[t.threshold] = t.ms;
  const Trial best = fastest(measured, /*warpOnly=*/true);
  if (best.threshold >= 0)
    state.warpThreshold = best.threshold;
}

void Autotuner::call(int device, TrialRunner &runner) {
  std::lock_guard<std::mutex> lock(mutex);
  DeviceState &state = devices[device];
  TunerStats &stats = state.stats;
  ++stats.calls;

  if (opts.forcedThreshold >= 0) {
    if (stats.threshold != opts.forcedThreshold) {
      runner.setThreshold(opts.forcedThreshold);
      stats.threshold = opts.forcedThreshold;
    }
    runner.launch();
    return;
  }
  if (!opts.enabled) {
    runner.launch();
    return;
  }
  if (!state.retune && state.sinceTuning < opts.retuneInterval) {
    ++state.sinceTuning;
    stats.kernelMs += stats.bestMs;
    runner.launch();
    return;
  }

  const bool local =
      opts.localRetune && stats.tunings > 0 &&
      (isWarpThreshold(stats.threshold) || stats.threshold == kBlockStrategy);
  auto measure = [&](const std::vector<int> &thresholds) {
    return runner.timedLaunches(thresholds);
  };
  runner.beginTuning();
  SearchResult found =
      local ? refineThreshold(stats.threshold, measure, state.warpThreshold,
                              opts.forms)
            : searchThreshold(opts.mode, opts.coarseStep, measure, opts.forms);
  const double sessionMs = runner.endTuning();
  rememberWarpThreshold(state, found.trials);
  runner.setThreshold(found.best);
  stats.threshold = found.best;
  stats.bestMs = found.bestMs;
  stats.lastTrials = std::move(found.trials);
  const double overhead = std::max(0.0, sessionMs - found.bestMs);
  stats.overheadMs += overhead;
  if (stats.tunings > 0)
    stats.retuneOverheadMs += overhead;
  stats.kernelMs += found.bestMs;
  ++stats.tunings;
  state.sinceTuning = 1;
  state.retune = false;
}

TunerStats Autotuner::stats(int device) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = devices.find(device);
  return it == devices.end() ? TunerStats() : it->second.stats;
}

TunerOptions Autotuner::options() const {
  std::lock_guard<std::mutex> lock(mutex);
  return opts;
}

void Autotuner::setOptions(const TunerOptions &options) {
  if (options.forcedThreshold != -1 && !isSiteValue(options.forcedThreshold))
    throw std::out_of_range("distwar: forced threshold " +
                            std::to_string(options.forcedThreshold) +
                            " outside -1..34 and kSerialForm + 0..32");
  if (options.retuneInterval < 1)
    throw std::out_of_range("distwar: retune interval must be at least 1");
  std::lock_guard<std::mutex> lock(mutex);
  opts = options;
}

void Autotuner::force(int threshold) {
  TunerOptions o = options();
  o.forcedThreshold = threshold;
  setOptions(o);
  if (threshold < 0)
    retuneSoon();
}

void Autotuner::setEnabled(bool enabled) {
  TunerOptions o = options();
  o.enabled = enabled;
  setOptions(o);
}

void Autotuner::retuneSoon() {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &entry : devices)
    entry.second.retune = true;
}

} // namespace distwar
