//===- distwar/variant_launch.h - Launching the fastest kernel variant ----===//
//
// The CUDA side of distwar/variant_choice.h: a launch statement with several
// kernels that compute the same outputs names them once, and each call runs
// the one the choice picks, timed with CUDA events when the choice asks:
//
//   static distwar::VariantLauncher render("render", {"original", "fine-4x2"});
//   render.run(stream, [&](int variant) {
//     if (variant == 0) renderOriginal<<<...>>>(...);
//     else renderFine<<<...>>>(...);
//   });
//
// The times are read back without a sync (cudaEventQuery at later calls),
// as distwar/launch.h does; each device chooses on its own. A call on a
// stream that is being captured, or with an error pending, runs the variant
// in force untimed. DISTWAR_AUTOTUNE=0 keeps the first variant;
// DISTWAR_AUTOTUNE_INTERVAL sets the launches between re-checks; with
// DISTWAR_REPORT each device's choice is one line of the report (its state
// belongs to the site registry, which writes the report at exit).
//
// Host code only; header-only.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_VARIANT_LAUNCH_H
#define DISTWAR_VARIANT_LAUNCH_H

#include "distwar/event_pairs.h"
#include "distwar/sites.h"
#include "distwar/variant_choice.h"

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace distwar {

namespace detail {
class VariantState;
} // namespace detail

/// What begin() hands to end().
struct VariantTicket {
  int variant = 0;
  int device = -1;
  /// The event pair of a timed launch; -1: not timed.
  int pair = -1;
  long long ticket = -1;
  cudaStream_t stream = nullptr;
};

namespace detail {

class VariantState final : public ChoiceReporter {
public:
  /// Timed launches in flight per device, at most.
  static constexpr int kEventPairs = 8;

  VariantState(std::string name, std::vector<std::string> variants,
               const Environment &env)
      : name(std::move(name)), variants(std::move(variants)),
        tuning(env.autotune),
        options(variantTunerOptions(static_cast<int>(this->variants.size()),
                                    env)) {}

  // Never destroyed before the program ends: its events are left to the
  // CUDA runtime's teardown, which may already have run.
  ~VariantState() override = default;
  // Its last device's state points into its own map.
  VariantState(const VariantState &) = delete;
  VariantState &operator=(const VariantState &) = delete;

  std::vector<std::string> reportLines() override {
    std::vector<std::string> lines;
    for (const auto &entry : devices) {
      std::string line = entry.second.choice.reportLine(name);
      line.insert(line.size() - 1,
                  ", \"device\": " + std::to_string(entry.first));
      lines.push_back(line);
    }
    return lines;
  }

  VariantTicket begin(cudaStream_t stream) {
    return begin(stream, [] { return true; });
  }

  /// `mayTime()`: false runs the variant in force untimed (the search
  /// waits). Asked only of a launch that may be timed: the answer can cost
  /// more than a quiet launch's whole bookkeeping.
  template <typename MayTime>
  VariantTicket begin(cudaStream_t stream, const MayTime &mayTime) {
    VariantTicket t;
    t.stream = stream;
    int device = 0;
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    // The program's own pending error is left for it to see.
    if (cudaPeekAtLastError() != cudaSuccess)
      return t;
    if (cudaGetDevice(&device) != cudaSuccess) {
      cudaGetLastError();
      return t;
    }
    Device &d = deviceState(device);
    t.variant = d.choice.variant();
    // Most launches, once the choice is settled, need neither the stream's
    // capture status nor the times of earlier launches (each a CUDA call of
    // a microsecond or more while the host's caches are cold); the timed
    // ones that follow read the times back. A launch on a stream being
    // captured counts here like any other (it runs the variant in force,
    // untimed, as the capture's own path below does).
    if (d.choice.nextIsQuiet()) {
      d.choice.next(false);
      return t;
    }
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
      cudaGetLastError();
      return t;
    }
    if (status != cudaStreamCaptureStatusNone)
      return t;
    if (!d.broken)
      collect(d);
    const VariantChoice::Plan plan =
        d.choice.next(!d.broken && d.events.freeCount() > 0 && mayTime());
    t.variant = plan.variant;
    if (plan.ticket < 0)
      return t;
    const int pair = d.events.start(stream, checker(d));
    if (pair < 0) {
      d.choice.forget(plan.ticket);
      return t;
    }
    t.device = device;
    t.pair = pair;
    t.ticket = plan.ticket;
    return t;
  }

  void end(const VariantTicket &t) {
    Device &d = devices.at(t.device);
    if (!d.events.stop(t.pair, t.ticket, t.stream, checker(d)))
      d.choice.forget(t.ticket);
  }

  int variantInForce(int device) { return deviceState(device).choice.variant(); }

private:
  struct Device {
    explicit Device(VariantChoice c) : choice(std::move(c)) {}
    VariantChoice choice;
    EventPairs events;
    bool prepared = false;
    bool broken = false;
  };

  /// The device's state; launches mostly come on the device of the last one.
  Device &deviceState(int device) {
    if (last && device == lastDevice)
      return *last;
    auto it = devices.find(device);
    if (it == devices.end())
      it = devices
               .emplace(device,
                        Device(VariantChoice(variants, tuning, options,
                                             static_cast<uint64_t>(device) +
                                                 0x9e3779b97f4a7c15ULL)))
               .first;
    Device &d = it->second;
    last = &d;
    lastDevice = device;
    if (!d.prepared && tuning) {
      d.prepared = true;
      d.events.create(kEventPairs, checker(d));
    }
    return d;
  }

  /// An error of ours stops the timing on this device, the choice staying
  /// where it is (StopOnError).
  static StopOnError checker(Device &d) { return StopOnError{&d.broken}; }

  /// Reads back every finished timed launch.
  void collect(Device &d) {
    d.events.collect(
        checker(d), [&d](long long t, double ms) { d.choice.record(t, ms); },
        [&d](long long t) { d.choice.forget(t); });
  }

  std::string name;
  std::vector<std::string> variants;
  bool tuning;
  OnlineTunerOptions options;
  std::map<int, Device> devices;
  /// The state of the last launch's device (a map keeps its nodes).
  Device *last = nullptr;
  int lastDevice = -1;
};

} // namespace detail

/// The static object of a launch statement with kernel variants.
class VariantLauncher {
public:
  /// `variants`: their names, the default (kept without tuning) first.
  VariantLauncher(std::string name, std::vector<std::string> variants) {
    detail::SiteRegistry &registry = detail::SiteRegistry::instance();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto owned = std::make_unique<detail::VariantState>(
        std::move(name), std::move(variants), registry.environment());
    state = owned.get();
    registry.choices.push_back(std::move(owned));
  }
  VariantLauncher(const VariantLauncher &) = delete;
  VariantLauncher &operator=(const VariantLauncher &) = delete;

  /// Calls `launch(variant)`, which enqueues that variant on `stream`.
  /// Throws std::invalid_argument when a DISTWAR_* variable holds a bad
  /// value.
  template <typename Launch> void run(cudaStream_t stream, Launch &&launch) {
    detail::SiteRegistry &registry = detail::SiteRegistry::instance();
    if (!registry.environmentError().empty())
      throw std::invalid_argument(registry.environmentError());
    VariantTicket t;
    {
      std::lock_guard<std::mutex> lock(registry.mutex);
      t = state->begin(stream);
    }
    launch(t.variant);
    if (t.pair < 0)
      return;
    std::lock_guard<std::mutex> lock(registry.mutex);
    state->end(t);
  }

  /// The variant in force on the current device.
  int variant() const {
    int device = 0;
    cudaGetDevice(&device);
    std::lock_guard<std::mutex> lock(
        detail::SiteRegistry::instance().mutex);
    return state->variantInForce(device);
  }

  /// The report line (as DISTWAR_REPORT writes it) of the lowest-numbered
  /// device that launched; empty before any launch.
  std::string report() const {
    std::lock_guard<std::mutex> lock(
        detail::SiteRegistry::instance().mutex);
    std::vector<std::string> lines = state->reportLines();
    return lines.empty() ? std::string() : lines.front();
  }

private:
  detail::VariantState *state = nullptr;
};

} // namespace distwar

#endif // DISTWAR_VARIANT_LAUNCH_H
