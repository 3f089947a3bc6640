//===- distwar/launch.h - Tuning the launches that distwar-rewrite wraps --===//
//
// distwar-rewrite wraps every launch, in the rewritten file, of a kernel that
// reads batched sites (docs/GENERATED_CODE.md, section 9):
//
//   { static ::distwar::LaunchTuner distwar_tuner0("renderCUDA",
//         {{&distwar_sites_backward_cu, "renderCUDA#0"}});
//     ::distwar::LaunchTicket distwar_ticket0 = distwar_tuner0.begin(stream);
//     renderCUDA<3><<<grid, block, 0, stream>>>(...);
//     distwar_tuner0.end(distwar_ticket0); }
//
// so that the program's own launches tune the thresholds with no code from
// its author (distwar/online_tuning.h says how). A block-capable site (a
// reduceBlock call, distwar/block_reduce.cuh) is named with a third member,
// `{&distwar_sites_backward_cu, "renderCUDA#0", true}`, which adds
// kBlockStrategy to the launch's candidates; a site written with both forms
// (reduceButterflyOrSerial, distwar/reduce.cuh) with a fourth,
// `{&distwar_sites_backward_cu, "renderCUDA#0", false, true}`, which adds
// the serial form of the warp thresholds. Every begin() checks for a
// pending error, the current device and whether the stream is being captured;
// then it takes the steps that distwar/launch_schedule.h decides, each only
// when that launch needs it:
// - writes the thresholds this launch runs with into the translation unit's
//   `__constant__` tables, ordered on the launch's stream
//   (cudaMemcpyToSymbolAsync), when they change;
// - reads back the times of earlier timed launches whose events are done
//   (cudaEventQuery: never a sync), at every launch while a search runs, and
//   at timed launches otherwise;
// - records a start event when the launch is timed; end() records the stop.
// A settled launch that is not timed (31 in 32) takes none of these steps.
// A stream that is being captured into a CUDA graph gets none of that: the
// search stops where it is (settles on the best so far, for good, since the
// graph's replays read the tables whenever they run), and the thresholds are
// set by copies from pinned memory that the graph replays. Sites that the
// environment, the program or a KernelTuner decided are left to them
// (distwar/sites.h); inside KernelTuner::run the launch only counts.
//
// Every set of sites has one state per process, shared by the launch
// statements and template instantiations that launch it, held by the site
// registry (the report written at exit reads it); each device searches on
// its own (its tables and its times are its own). Calls are serialised by the
// registry's mutex. A CUDA error of the program is left for the program to
// see: nothing is done while one is pending. An error of ours stops the
// tuning on that device and is cleared.
//
// Host code only; header-only so that rewritten code needs nothing but the
// CUDA runtime.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_LAUNCH_H
#define DISTWAR_LAUNCH_H

#include "distwar/event_pairs.h"
#include "distwar/launch_schedule.h"
#include "distwar/online_tuning.h"
#include "distwar/sites.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace distwar {

/// One site a launch reads: its table (the host shadow of the
/// `__constant__` array), its name, whether it is block-capable (a
/// reduceBlock site: kBlockStrategy selects its block strategy) and whether
/// it has both forms (kSerialForm selects the serial one). A launch that
/// reads a block-capable site tunes kBlockStrategy as one more candidate,
/// one that reads a two-form site each warp threshold in both forms;
/// `{&table, "name"}` leaves both flags off.
struct SiteRef {
  const void *symbol;
  const char *name;
  bool block = false;
  bool forms = false;
};

namespace detail {
class LaunchState;
} // namespace detail

/// What begin() hands to end().
struct LaunchTicket {
  detail::LaunchState *state = nullptr;
  cudaStream_t stream = nullptr;
  int device = -1;
  /// The event pair of a timed launch; -1: not timed.
  int pair = -1;
  /// The tuner's ticket; -1 for a launch timed for the report only.
  long long ticket = -1;
};

namespace detail {

/// Relaxed stream-capture mode on this thread while alive: the event
/// queries and allocations below must not invalidate a capture that another
/// thread has under way in global mode.
class RelaxedCapture {
public:
  RelaxedCapture()
      : ok(cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess) {}
  ~RelaxedCapture() {
    if (ok)
      cudaThreadExchangeStreamCaptureMode(&mode);
  }
  RelaxedCapture(const RelaxedCapture &) = delete;
  RelaxedCapture &operator=(const RelaxedCapture &) = delete;

private:
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  bool ok;
};

/// The tuner of a launch; `block`: some site it reads is block-capable, so
/// kBlockStrategy is a candidate (in exhaustive searches too); `forms`: some
/// site has both forms, so the warp thresholds are candidates in both.
inline OnlineTunerOptions launchTunerOptions(const Environment &env, bool block,
                                             bool forms) {
  OnlineTunerOptions o;
  if (env.searchGiven && env.search == SearchMode::kExhaustive)
    o.candidates = OnlineTunerOptions::allThresholds(block);
  else if (block)
    o.candidates.push_back(kBlockStrategy);
  if (forms)
    o.candidates = withSerialForm(o.candidates);
  if (env.interval > 0)
    o.recheckInterval = env.interval;
  return o;
}

class LaunchState final : public LaunchReporter {
public:
  /// Timed launches in flight per device, at most.
  static constexpr int kEventPairs = 16;

  /// `block`: some site is block-capable; `forms`: some site has both
  /// forms (see SiteRef).
  LaunchState(std::vector<SiteEntry> sites, const Environment &env, bool block,
              bool forms, uint64_t seed)
      : entries(std::move(sites)), tuning(env.autotune),
        options(launchTunerOptions(env, block, forms)), seed(seed) {}

  // Never destroyed before the program ends: its events and pinned memory
  // are left to the CUDA runtime's teardown, which may already have run.
  ~LaunchState() override = default;

  void addKernel(const std::string &name) {
    for (const std::string &k : kernels)
      if (k == name)
        return;
    kernels.push_back(name);
  }

  LaunchSummary summary() override {
    LaunchSummary s;
    for (const std::string &k : kernels)
      s.kernels += (s.kernels.empty() ? "" : ",") + k;
    s.calls = calls;
    // Calls and times of every device; the search of the busiest one.
    const Device *busiest = nullptr;
    for (const auto &entry : devices) {
      const Device &d = entry.second;
      const OnlineTuner &tuner = d.schedule.tuner();
      s.timedCalls +=
          d.schedule.reportSampleCount() + tuner.settledSampleCount();
      s.timedMs += d.schedule.reportSampleMs() +
                   tuner.settledMeanMs() * tuner.settledSampleCount();
      if (!busiest || tuner.callCount() > busiest->schedule.tuner().callCount())
        busiest = &d;
    }
    if (busiest) {
      const OnlineTuner &tuner = busiest->schedule.tuner();
      s.settled = tuner.settled();
      s.searches = tuner.searches();
      s.moves = tuner.moves();
      s.lastSearch = tuner.lastSearch();
    }
    return s;
  }

  bool searching() const override {
    for (const auto &entry : devices)
      if (!entry.second.broken && entry.second.schedule.searching())
        return true;
    return false;
  }

  LaunchTicket begin(cudaStream_t stream, SiteRegistry &registry) {
    LaunchTicket t;
    t.state = this;
    t.stream = stream;
    ++calls;
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    Device *d = usableDevice(stream, status, t);
    if (!d)
      return t;
    // The calls below that another thread's capture in global mode forbids
    // (event queries, allocations, pageable copies) run in relaxed mode; a
    // launch that makes none (most, once settled) leaves the mode alone.
    std::optional<RelaxedCapture> relaxed;
    auto relax = [&relaxed] {
      if (!relaxed)
        relaxed.emplace();
    };
    const bool passive = kernelTunerDepth() > 0;
    const LaunchSchedule::Sites sites = currentSites(registry);
    if (status != cudaStreamCaptureStatusNone) {
      d->schedule.freeze();
      if (!passive) {
        relax();
        setForCapture(*d, sites, stream);
      }
      return t;
    }
    if (!d->pinned) {
      relax();
      if (!preparePinned(*d))
        return t;
    }
    beginScheduled(*d, stream, sites, passive, relax, t);
    return t;
  }

  void end(const LaunchTicket &t) {
    Device &d = devices.at(t.device);
    if (!d.events.stop(t.pair, t.ticket, t.stream, checker(d)))
      d.schedule.forget(t.ticket);
  }

private:
  /// Tables are per device, and so are times: each device tunes its own.
  struct Device {
    Device(const OnlineTunerOptions &options, uint64_t seed)
        : schedule(options, seed) {}
    LaunchSchedule schedule;
    /// Per entry, the value this state last wrote (-1: unknown).
    std::vector<int> known;
    unsigned long long generation = ~0ULL;
    EventPairs events;
    /// Per entry, what a captured launch copies into the table.
    int *pinned = nullptr;
    bool broken = false;
  };

  /// The device's state; launches mostly come on the device of the last one.
  Device &deviceState(int device) {
    if (!last || device != lastDevice) {
      last = &devices.try_emplace(device, options, seed).first->second;
      lastDevice = device;
    }
    return *last;
  }

  /// The state of the current device (its number in `t`) when this launch
  /// may be tuned or timed there, and the stream's capture status; nullptr
  /// when the launch is left alone: the program has an error pending (left
  /// for its own check), the device or the capture status cannot be read
  /// (the legacy stream while another stream captures), or tuning stopped on
  /// that device.
  Device *usableDevice(cudaStream_t stream, cudaStreamCaptureStatus &status,
                       LaunchTicket &t) {
    if (cudaPeekAtLastError() != cudaSuccess)
      return nullptr;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    Device &d = deviceState(device);
    if (d.broken)
      return nullptr;
    t.device = device;
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    return &d;
  }

  /// A launch outside any capture: reads back finished times when the
  /// schedule asks first, writes the threshold it plans, and records the
  /// start event of a timed launch into `t`. `relax` enters relaxed capture
  /// mode (see begin) before the first call that needs it.
  template <typename Relax>
  void beginScheduled(Device &d, cudaStream_t stream,
                      const LaunchSchedule::Sites &sites, bool passive,
                      const Relax &relax, LaunchTicket &t) {
    if (d.generation != sites.generation) {
      d.known.assign(entries.size(), -1);
      d.generation = sites.generation;
    }
    if (d.schedule.collectsFirst(sites) && d.events.inFlightCount() > 0) {
      relax();
      collect(d);
      if (d.broken)
        return;
    }
    const LaunchSchedule::Steps steps =
        d.schedule.plan(sites, passive, d.events.freeCount(),
                        d.events.inFlightCount());
    if (steps.write) {
      relax();
      if (!write(d, stream, steps.threshold)) {
        d.schedule.forget(steps.ticket);
        return;
      }
      d.schedule.written(steps, sites);
    }
    if (steps.ticket == -1)
      return;
    relax();
    if (steps.collect)
      collect(d);
    const int pair = d.broken ? -1 : d.events.start(stream, checker(d));
    if (pair < 0) {
      d.schedule.forget(steps.ticket);
      return;
    }
    t.pair = pair;
    t.ticket = steps.ticket;
  }

  /// An error of ours stops the tuning on this device (StopOnError).
  static StopOnError checker(Device &d) { return StopOnError{&d.broken}; }
  static bool check(Device &d, cudaError_t err) { return checker(d)(err); }

  /// Whether some site is left to launch tuning; it changes only with the
  /// registry's generation (the setters and KernelTuners).
  LaunchSchedule::Sites currentSites(const SiteRegistry &registry) {
    if (!sitesKnown || cachedSites.generation != registry.generation) {
      cachedSites.generation = registry.generation;
      cachedSites.tuned = false;
      for (const SiteEntry &e : entries) {
        const ThresholdOrigin o = e.table->origin[e.index];
        cachedSites.tuned = cachedSites.tuned ||
                            o == ThresholdOrigin::kDefault ||
                            o == ThresholdOrigin::kLaunchTuner;
      }
      cachedSites.tuned = cachedSites.tuned && tuning;
      sitesKnown = true;
    }
    return cachedSites;
  }

  /// What entry `i` should hold: the environment's value, the launch
  /// tuner's `tuned` (-1: leave it), or -1 for a site decided elsewhere.
  int desired(size_t i, int tuned) const {
    const SiteEntry &e = entries[i];
    switch (e.table->origin[e.index]) {
    case ThresholdOrigin::kEnvironment:
      return e.table->value[e.index];
    case ThresholdOrigin::kDefault:
    case ThresholdOrigin::kLaunchTuner:
      return tuning ? tuned : -1;
    case ThresholdOrigin::kProgram:
    case ThresholdOrigin::kKernelTuner:
      return -1;
    }
    return -1;
  }

  /// Reads back every finished timed launch.
  void collect(Device &d) {
    d.events.collect(
        checker(d), [&d](long long t, double ms) { d.schedule.record(t, ms); },
        [&d](long long t) { d.schedule.forget(t); });
  }

  /// Events and pinned memory, once per device (never during a capture).
  bool preparePinned(Device &d) {
    if (!d.events.create(kEventPairs, checker(d)))
      return false;
    void *pinned = nullptr;
    if (!check(d, cudaHostAlloc(&pinned, entries.size() * sizeof(int),
                                cudaHostAllocDefault)))
      return false;
    d.pinned = static_cast<int *>(pinned);
    for (size_t i = 0; i < entries.size(); ++i)
      d.pinned[i] = -1;
    return true;
  }

  /// Writes the entries whose value changes; false on an error.
  bool write(Device &d, cudaStream_t stream, int tuned) {
    // The environment's entries are written once; a launch that changes
    // nothing allocates nothing.
    bool any = false;
    for (size_t i = 0; i < entries.size() && !any; ++i) {
      const int v = desired(i, tuned);
      any = v >= 0 && v != d.known[i];
    }
    if (!any)
      return true;
    std::map<SiteTable *, std::vector<int>> changes;
    std::vector<int> values(entries.size(), -1);
    for (size_t i = 0; i < entries.size(); ++i) {
      const int v = desired(i, tuned);
      if (v < 0 || v == d.known[i])
        continue;
      values[i] = v;
      const SiteEntry &e = entries[i];
      std::vector<int> &row = changes[e.table];
      row.resize(e.table->names.size(), -1);
      row[e.index] = v;
    }
    for (auto &change : changes)
      if (change.first->symbol &&
          !check(d, copyToTable(*change.first, change.second, stream, true)))
        return false;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (values[i] < 0)
        continue;
      const SiteEntry &e = entries[i];
      d.known[i] = values[i];
      d.pinned[i] = values[i];
      e.table->value[e.index] = values[i];
      if (e.table->origin[e.index] == ThresholdOrigin::kDefault)
        e.table->origin[e.index] = ThresholdOrigin::kLaunchTuner;
    }
    return true;
  }

  /// A captured launch: the graph gets copies from pinned memory, so each
  /// replay runs with what the tuner settled on.
  void setForCapture(Device &d, const LaunchSchedule::Sites &sites,
                     cudaStream_t stream) {
    if (!d.pinned)
      return;
    const int tuned = sites.tuned ? d.schedule.tuner().threshold() : -1;
    for (size_t i = 0; i < entries.size(); ++i) {
      const int v = desired(i, tuned);
      const SiteEntry &e = entries[i];
      if (v < 0 || !e.table->symbol)
        continue;
      d.pinned[i] = v;
      if (!check(d, cudaMemcpyToSymbolAsync(e.table->symbol, &d.pinned[i],
                                            sizeof(int), e.index * sizeof(int),
                                            cudaMemcpyHostToDevice, stream)))
        return;
    }
  }

  std::vector<SiteEntry> entries;
  std::vector<std::string> kernels;
  bool tuning;
  OnlineTunerOptions options;
  uint64_t seed;
  std::map<int, Device> devices;
  Device *last = nullptr;
  int lastDevice = -1;
  LaunchSchedule::Sites cachedSites;
  bool sitesKnown = false;
  long long calls = 0;
};

} // namespace detail

/// The static object of a wrapped launch statement.
class LaunchTuner {
public:
  LaunchTuner(const char *kernel, std::initializer_list<SiteRef> sites) {
    detail::SiteRegistry &registry = detail::SiteRegistry::instance();
    std::lock_guard<std::mutex> lock(registry.mutex);
    std::vector<detail::SiteEntry> entries;
    uint64_t seed = 1469598103934665603ULL;
    bool block = false, forms = false;
    for (const SiteRef &ref : sites) {
      for (detail::SiteTable &table : registry.tables) {
        if (table.symbol != ref.symbol)
          continue;
        for (size_t k = 0; k < table.names.size(); ++k) {
          if (table.names[k] != ref.name)
            continue;
          entries.push_back({&table, static_cast<int>(k)});
          block = block || ref.block;
          forms = forms || ref.forms;
        }
      }
      for (const char *c = ref.name; *c; ++c)
        seed = (seed ^ static_cast<unsigned char>(*c)) * 1099511628211ULL;
    }
    std::sort(entries.begin(), entries.end());
    entries.erase(
        std::unique(entries.begin(), entries.end(),
                    [](const detail::SiteEntry &a, const detail::SiteEntry &b) {
                      return !(a < b) && !(b < a);
                    }),
        entries.end());
    if (entries.empty())
      return;
    // Launch statements of one set of sites share its state, made by the
    // first of them: the block and form flags are the sites' own (the
    // rewriter writes them from the site), so every statement passes the
    // same.
    std::unique_ptr<detail::LaunchReporter> &slot = registry.launches[entries];
    if (!slot)
      slot = std::make_unique<detail::LaunchState>(
          entries, registry.environment(), block, forms, seed);
    state = static_cast<detail::LaunchState *>(slot.get());
    state->addKernel(kernel);
  }
  LaunchTuner(const LaunchTuner &) = delete;
  LaunchTuner &operator=(const LaunchTuner &) = delete;

  /// Before the launch on `stream`. Throws std::invalid_argument when a
  /// DISTWAR_* variable holds a bad value.
  LaunchTicket begin(cudaStream_t stream) {
    if (!state)
      return LaunchTicket();
    detail::SiteRegistry &registry = detail::SiteRegistry::instance();
    if (!registry.environmentError().empty())
      throw std::invalid_argument(registry.environmentError());
    std::lock_guard<std::mutex> lock(registry.mutex);
    return state->begin(stream, registry);
  }

  /// After the launch.
  void end(const LaunchTicket &ticket) {
    if (!ticket.state || ticket.pair < 0)
      return;
    std::lock_guard<std::mutex> lock(detail::SiteRegistry::instance().mutex);
    ticket.state->end(ticket);
  }

private:
  detail::LaunchState *state = nullptr;
};

} // namespace distwar

#endif // DISTWAR_LAUNCH_H
