//===- distwar/variant_choice.h - Picking a launch's kernel variant -------===//
//
// A launch that has several kernels computing the same outputs (the original
// 3DGS render and its load-balanced versions, say) keeps the fastest on the
// program's own launches, the way launch tuning keeps a threshold
// (distwar/online_tuning.h): which one wins depends on the data (how unevenly
// the work falls on the tiles), and the data changes as training goes on.
// Free of CUDA; distwar/variant_launch.h times the launches.
//
// Each variant is first launched once, untimed (a first launch loads the
// module and is slower). Then the OnlineTuner runs its rounds over the
// variants (candidate k + 1 is variant k: its candidates start at 1): every
// remaining variant once per round in a random order, the clearly slower cut
// (1.5x after one round, 1.25x after two, then by significance), until one
// is left. Settled, every launch runs the winner and one in `sampleEvery`
// is timed for the report. Every `recheckInterval` launches
// (DISTWAR_AUTOTUNE_INTERVAL) a re-check times every variant again; the
// choice moves only to a variant faster by `minGain`, significantly, in two
// re-checks in a row, and each re-check that keeps it doubles the interval
// (up to `maxIntervalGrowth` times). Without tuning (DISTWAR_AUTOTUNE=0)
// every launch runs the first variant, the default.
//
// Not thread-safe: the caller serialises.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_VARIANT_CHOICE_H
#define DISTWAR_VARIANT_CHOICE_H

#include "distwar/environment.h"
#include "distwar/online_tuning.h"

#include <cassert>
#include <cstdio>
#include <string>
#include <vector>

namespace distwar {

/// The tuner of a choice among `variants` kernels, under `env`.
inline OnlineTunerOptions variantTunerOptions(int variants,
                                              const Environment &env) {
  assert(variants >= 1 && variants <= kNeverReduce &&
         "a choice has 1 to 33 variants");
  OnlineTunerOptions o;
  o.candidates.clear();
  for (int k = 0; k < variants; ++k)
    o.candidates.push_back(k + 1);
  o.recheckAll = true;
  // VariantChoice launches each variant once before the search instead.
  o.warmupCalls = 0;
  if (env.interval > 0)
    o.recheckInterval = env.interval;
  return o;
}

class VariantChoice {
public:
  /// What to do for one launch.
  struct Plan {
    int variant = 0;
    /// >= 0: time this launch and record() its time with this ticket.
    long long ticket = -1;
  };

  /// `names`: the variants, the default first; `tuning`: false keeps it.
  VariantChoice(std::vector<std::string> names, bool tuning,
                OnlineTunerOptions options, uint64_t seed = 1)
      : names(std::move(names)), tuning(tuning),
        tuner(std::move(options), seed) {
    assert(!this->names.empty() && "a choice needs a variant");
  }

  Plan next(bool canTime) {
    ++calls;
    if (!tuning)
      return Plan{};
    if (warmed < static_cast<int>(names.size()))
      return Plan{warmed++, -1};
    const OnlineTuner::Plan p = tuner.next(canTime);
    return Plan{p.threshold >= 1 ? p.threshold - 1 : variant(), p.ticket};
  }

  /// Whether next() will return the variant in force, untimed, whatever
  /// its `canTime`: no tuning, or a settled launch that is neither sampled
  /// nor a re-check's.
  bool nextIsQuiet() const {
    if (!tuning)
      return true;
    return warmed >= static_cast<int>(names.size()) && tuner.nextIsQuiet();
  }

  void record(long long ticket, double ms) { tuner.record(ticket, ms); }
  void forget(long long ticket) { tuner.forget(ticket); }

  /// The variant in force: the winner (also during a re-check), the leading
  /// one of the first search, else the default.
  int variant() const {
    const int t = tuning ? tuner.threshold() : -1;
    return t >= 1 ? t - 1 : 0;
  }
  const std::string &name(int k) const { return names.at(k); }
  int variants() const { return static_cast<int>(names.size()); }
  long long callCount() const { return calls; }
  const OnlineTuner &search() const { return tuner; }

  /// One JSON line for DISTWAR_REPORT: the variant in force and how it was
  /// chosen, launches, searches, moves, and the last search's mean times.
  std::string reportLine(const std::string &choice) const {
    const std::string how =
        !tuning ? "default" : tuner.settled() ? "tuned" : "searching";
    std::string out = "{\"choice\": " + quoted(choice) + ", \"variants\": [";
    for (size_t k = 0; k < names.size(); ++k)
      out += (k ? ", " : "") + quoted(names[k]);
    out += "], \"variant\": " + quoted(names[variant()]) + ", \"how\": \"" +
           how + "\", \"calls\": " + std::to_string(calls) +
           ", \"searches\": " + std::to_string(tuner.searches()) +
           ", \"moves\": " + std::to_string(tuner.moves()) +
           ", \"mean_ms\": " + number(tuner.settledMeanMs()) +
           ", \"last_search\": {";
    bool first = true;
    for (const OnlineTuner::CandidateStats &c : tuner.lastSearch()) {
      if (!c.samples)
        continue;
      out += std::string(first ? "" : ", ") + quoted(names[c.threshold - 1]) +
             ": {\"ms\": " + number(c.meanMs) +
             ", \"n\": " + std::to_string(c.samples) +
             (c.remaining ? "" : ", \"dropped\": true") + "}";
      first = false;
    }
    return out + "}}";
  }

private:
  static std::string quoted(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\')
        out += '\\';
      out += c;
    }
    return out + "\"";
  }
  static std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
  }

  std::vector<std::string> names;
  bool tuning;
  OnlineTuner tuner;
  /// Variants launched once before the search.
  int warmed = 0;
  long long calls = 0;
};

} // namespace distwar

#endif // DISTWAR_VARIANT_CHOICE_H
