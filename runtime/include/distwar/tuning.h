//===- distwar/tuning.h - Threshold autotuning logic (no CUDA) -----------===//
//
// The search and scheduling of the threshold autotuner, independent of how a
// launch is timed or how buffers are saved: a TrialRunner does that (CUDA
// events and device copies in distwar/autotune.h, a fake clock in the tests).
//
// Schedule (as in DISTWAR): the first call on a device tunes, then every
// `retuneInterval` calls. A tuning call times one launch per candidate
// threshold and keeps the fastest (ties: the lowest threshold). The
// candidates are the warp thresholds 1..33 and kBlockStrategy (34), which
// is a candidate of its own: a neighbourhood never steps from 33 to it or
// from it to 30 or 32 (distwar/threshold_values.h). At sites without a block
// strategy 34 runs as plain atomics, as 33 does, and the tie keeps 33. The
// runner restores the registered outputs before every trial launch but the
// first, so a tuning call leaves exactly the outputs of one launch. With
// `forms` (a launch that reads a site written with both forms) every warp
// threshold below 33 is also a candidate in the serial form (kSerialForm |
// t); a neighbourhood steps in the centre's form and times the same
// thresholds in the other.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TUNING_H
#define DISTWAR_TUNING_H

#include "distwar/environment.h"

#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace distwar {

struct TunerOptions {
  /// Calls between tunings on one device; the first call tunes.
  long long retuneInterval = 2000;
  SearchMode mode = SearchMode::kExhaustive;
  int coarseStep = 8;
  /// Re-tunings after the first search only around the threshold in force
  /// (best +-1, +-2, +-4 and itself; with kBlockStrategy in force, it and
  /// the neighbourhood of the best warp threshold found before): trials at
  /// far, slow thresholds cost more than the 1% budget. false: every tuning
  /// runs the full `mode` search.
  bool localRetune = true;
  /// false: launch with the thresholds as they are, never tune.
  bool enabled = true;
  /// 0..34 (or a serial-form value): set this threshold and never tune;
  /// -1: none.
  int forcedThreshold = -1;
  /// The launch reads a site written with both forms: search the serial
  /// form of each warp threshold too.
  bool forms = false;
};

/// Applies the environment (distwar/environment.h): a DISTWAR_THRESHOLD value
/// for every site forces it (site=value entries are the site registry's:
/// KernelTuner leaves those sites at them), DISTWAR_AUTOTUNE=0 disables
/// tuning (1 enables), DISTWAR_AUTOTUNE_INTERVAL=<n> sets the retune
/// interval, DISTWAR_AUTOTUNE_SEARCH=exhaustive|coarse the search. Throws
/// std::invalid_argument naming the variable on a bad value.
TunerOptions applyEnvironment(
    TunerOptions options,
    const std::function<const char *(const char *)> &getEnv =
        [](const char *name) { return std::getenv(name); });

struct Trial {
  int threshold;
  double ms;
};

struct SearchResult {
  int best = -1;
  double bestMs = 0;
  std::vector<Trial> trials; // in the order they ran
};

/// Runs one timed launch per threshold, in order; returns their times in ms.
using MeasureFn = std::function<std::vector<double>(const std::vector<int> &)>;

/// The search alone (each round of trials is one call of `measure`).
/// Exhaustive: 1..33, then 34. Coarse: 1, 1 + step, ..., 33 and 34, then
/// halving the step around the fastest warp threshold. With `forms`, the
/// first round has each warp threshold below 33 in the serial form too.
SearchResult searchThreshold(SearchMode mode, int coarseStep,
                             const MeasureFn &measure, bool forms = false);

/// One round around `center`: center, +-1, +-2, +-4 (within 1..33, in the
/// centre's form; with `forms` in both). Centred on kBlockStrategy: it and
/// the round around `warpCenter` (the best warp threshold known; none when
/// not a warp threshold), so that a re-tune can leave it.
SearchResult refineThreshold(int center, const MeasureFn &measure,
                             int warpCenter = -1, bool forms = false);

/// What the tuner needs from the launch it tunes.
class TrialRunner {
public:
  virtual ~TrialRunner() = default;
  /// Threshold for the launches that follow.
  virtual void setThreshold(int threshold) = 0;
  /// One launch, untimed.
  virtual void launch() = 0;
  /// Starts a tuning session: saves the registered outputs.
  virtual void beginTuning() = 0;
  /// One timed launch per threshold, in order; before each launch but the
  /// first of the session the outputs are restored. Returns ms per launch.
  virtual std::vector<double>
  timedLaunches(const std::vector<int> &thresholds) = 0;
  /// Ends the session; returns the ms it took in all (copies, trials).
  virtual double endTuning() = 0;
};

struct TunerStats {
  long long calls = 0;
  long long tunings = 0;
  int threshold = -1; // in force (-1: never set by the tuner)
  double bestMs = 0;  // best trial of the last tuning
  /// Tuning time beyond the one launch each tuning call would have cost.
  double overheadMs = 0;
  /// The part of overheadMs spent after the first tuning (steady state).
  double retuneOverheadMs = 0;
  /// Launch time of all calls, estimated from the best trial times.
  double kernelMs = 0;
  std::vector<Trial> lastTrials;
  double overheadFraction() const {
    return kernelMs > 0 ? overheadMs / kernelMs : 0;
  }
  double retuneOverheadFraction() const {
    return kernelMs > 0 ? retuneOverheadMs / kernelMs : 0;
  }
};

/// Per-device tuning state machine; thread-safe (calls are serialised).
class Autotuner {
public:
  explicit Autotuner(TunerOptions options = TunerOptions());

  /// One invocation on `device`: tunes when due, else launches once.
  void call(int device, TrialRunner &runner);

  TunerStats stats(int device) const;
  TunerOptions options() const;
  void setOptions(const TunerOptions &options);
  /// Forces t (a site value) from the next call on; -1 returns to tuning.
  void force(int threshold);
  void setEnabled(bool enabled);
  /// The next call on every device tunes.
  void retuneSoon();

private:
  struct DeviceState {
    TunerStats stats;
    long long sinceTuning = 0;
    bool retune = true;
    /// The fastest warp threshold (1..33) of the last tuning that timed one:
    /// the neighbourhood a re-tune at kBlockStrategy also times.
    int warpThreshold = -1;
  };
  static void rememberWarpThreshold(DeviceState &state,
                                    const std::vector<Trial> &trials);
  mutable std::mutex mutex;
  TunerOptions opts;
  std::map<int, DeviceState> devices;
};

} // namespace distwar

#endif // DISTWAR_TUNING_H
