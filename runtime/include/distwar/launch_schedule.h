//===- distwar/launch_schedule.h - The host steps of a wrapped launch -----===//
//
// What a launch that distwar-rewrite wrapped does on the host, decided per set
// of sites and device without CUDA (distwar/launch.h takes the steps with
// CUDA calls; the unit tests take them with none): the threshold it runs
// with, whether the tables must be written, whether it is timed, and whether
// earlier timed launches are read back first.
//
// The search runs on the program's real launches for a few dozen of them; the
// thousands after it run settled, so a settled launch asks for no CUDA call
// beyond the checks every launch makes (a pending error, the device, a
// capture):
// - the thresholds are written only when the value to write changes, or when
//   a setter or a KernelTuner wrote the tables (the registry's generation);
// - earlier timed launches are read back (cudaEventQuery) by every launch
//   while a search runs, since its rounds wait for their times, and otherwise
//   only by a launch that is timed itself;
// - settled, one launch in OnlineTunerOptions::sampleEvery is timed for the
//   report; without tuning (every site decided by the environment, the
//   program or a KernelTuner, or a launch was captured), one in
//   kReportSampleEvery.
//
// Not thread-safe: the caller serialises (the site registry's mutex).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_LAUNCH_SCHEDULE_H
#define DISTWAR_LAUNCH_SCHEDULE_H

#include "distwar/online_tuning.h"

#include <cstddef>
#include <cstdint>

namespace distwar {
namespace detail {

class LaunchSchedule {
public:
  /// Without tuning, one launch in this many is timed for the report.
  static constexpr long long kReportSampleEvery = 32;
  /// The ticket of a launch timed for the report only.
  static constexpr long long kReportSample = -2;

  /// The sites as the registry has them when a launch comes.
  struct Sites {
    /// Some site is left to launch tuning, and tuning is on.
    bool tuned = false;
    /// The registry's count of writes by setters and KernelTuners.
    unsigned long long generation = 0;
  };

  struct Steps {
    /// Write the tables: every site left to tuning gets `threshold`, the
    /// environment's sites their value.
    bool write = false;
    /// The tuned threshold (-1: leave the tuned sites as they are).
    int threshold = -1;
    /// Time this launch: a tuner ticket (>= 0) or kReportSample; -1: no.
    long long ticket = -1;
    /// Before timing it, read back the finished timed launches (their event
    /// pairs become free); false when collectsFirst() already had them read.
    bool collect = false;
  };

  LaunchSchedule(const OnlineTunerOptions &options, uint64_t seed)
      : search(options, seed) {}

  /// Whether this launch reads back the finished timed launches before
  /// plan(): while a search runs, every launch does; also once a capture
  /// stopped it, since the times still in flight may yet decide it.
  bool collectsFirst(const Sites &sites) const {
    return sites.tuned && !search.settled();
  }

  /// The steps of the next launch, once collectsFirst()'s reading back is
  /// done. `passive`: a KernelTuner runs it and owns the thresholds.
  /// `freePairs`, `pairsInFlight`: event pairs free, and recorded but not
  /// read back yet (they may be done).
  Steps plan(const Sites &sites, bool passive, size_t freePairs,
             size_t pairsInFlight) {
    Steps s;
    if (passive)
      return s;
    ++launches;
    tunedLast = sites.tuned;
    const bool collected = collectsFirst(sites);
    const bool canTime = freePairs > 0 || (!collected && pairsInFlight > 0);
    OnlineTuner::Plan p;
    if (sites.tuned) {
      if (isFrozen)
        p.threshold = search.threshold();
      else
        p = search.next(canTime);
    }
    if (p.ticket < 0 && canTime && (!sites.tuned || isFrozen) &&
        launches % kReportSampleEvery == 0)
      p.ticket = kReportSample;
    s.threshold = p.threshold;
    s.ticket = p.ticket;
    s.collect = s.ticket != -1 && !collected;
    s.write = !hasWritten || s.threshold != writtenThreshold ||
              sites.generation != writtenGeneration;
    return s;
  }

  /// The tables hold what plan() asked to write.
  void written(const Steps &s, const Sites &sites) {
    hasWritten = true;
    writtenThreshold = s.threshold;
    writtenGeneration = sites.generation;
  }

  /// The time of a launch timed with `ticket`.
  void record(long long ticket, double ms) {
    if (ticket == kReportSample) {
      ++samples;
      samplesMs += ms;
      return;
    }
    search.record(ticket, ms);
  }

  /// A timed launch whose time will never come.
  void forget(long long ticket) {
    if (ticket >= 0)
      search.forget(ticket);
  }

  /// A launch was captured into a CUDA graph: the search stops for good.
  void freeze() { isFrozen = true; }
  bool frozen() const { return isFrozen; }

  /// Whether the last launch's thresholds were tuned and their search is
  /// still running (a search that nothing tunes any more is not).
  bool searching() const {
    return tunedLast && !isFrozen && !search.settled();
  }

  const OnlineTuner &tuner() const { return search; }
  /// Launches timed for the report, with no tuner, and their total time.
  long long reportSampleCount() const { return samples; }
  double reportSampleMs() const { return samplesMs; }

private:
  OnlineTuner search;
  bool isFrozen = false;
  /// Whether the last planned launch had tuned sites.
  bool tunedLast = false;
  /// Launches planned (passive ones are not).
  long long launches = 0;
  bool hasWritten = false;
  int writtenThreshold = -1;
  unsigned long long writtenGeneration = 0;
  long long samples = 0;
  double samplesMs = 0;
};

} // namespace detail
} // namespace distwar

#endif // DISTWAR_LAUNCH_SCHEDULE_H
