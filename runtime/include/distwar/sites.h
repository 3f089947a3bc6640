//===- distwar/sites.h - Per-site thresholds, set by name at run time ----===//
//
// Every rewritten translation unit defines, through DISTWAR_SITES, a
// `static __constant__ int` table with one threshold per batched call site and
// registers it here when the program starts. The host sets thresholds by site
// name; a name may appear in several tables (several rewritten TUs linked
// together, each with its own table, no -rdc needed) and is set in all.
//
// Header-only so that rewritten code compiles and links with nothing but the
// CUDA runtime. The registry is a function-local static of an inline function
// with hidden visibility: one per executable or shared object (a PyTorch
// extension), whatever else the process loads; GCC would otherwise make it
// one object for the whole process, shared by every extension. No CUDA
// call happens at registration; device tables are written by the setters,
// on the current device (tables are per device), and by the launches that
// distwar-rewrite wraps (distwar/launch.h).
//
// The registry also keeps, per site, how its threshold came to be: the
// environment (DISTWAR_THRESHOLD, applied to each table as it registers), the
// program (the setters below), a KernelTuner, or the launch tuning of
// distwar/launch.h. Launch tuning leaves alone the sites that the environment,
// the program or a KernelTuner decided. With DISTWAR_REPORT=FILE the registry
// writes, when the program exits, one JSON line per site: its threshold (and
// `"form": "serial"` where its value has the serial form's bit), how it was
// chosen, the launches that read it and their time; then one per
// choice among kernel variants and device (distwar/variant_choice.h)
// (distwar_write_report() writes the same on demand).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_SITES_H
#define DISTWAR_SITES_H

#include "distwar/environment.h"
#include "distwar/online_tuning.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

namespace distwar {

/// How a site's threshold came to be (the report's "how").
enum class ThresholdOrigin {
  kDefault,     ///< the table's initial value (0, or DISTWAR_SITES_INITIAL's)
  kEnvironment, ///< DISTWAR_THRESHOLD
  kProgram,     ///< setSiteThreshold / setAllSiteThresholds
  kKernelTuner, ///< a distwar::KernelTuner
  kLaunchTuner, ///< the launch tuning of distwar/launch.h
};

namespace detail {

struct SiteTable {
  std::string table;              // the C identifier, for messages
  std::vector<std::string> names; // names[k] is the site of table[k]
  const void *symbol;             // host shadow; null once unregistered
  std::vector<int> value;         // last value set, else the initial one
  std::vector<ThresholdOrigin> origin;
};

/// One entry of a table.
struct SiteEntry {
  SiteTable *table;
  int index;
  bool operator<(const SiteEntry &o) const {
    return table != o.table ? std::less<SiteTable *>()(table, o.table)
                            : index < o.index;
  }
};

/// What the report says about the launches that read some sites.
struct LaunchSummary {
  std::string kernels;
  long long calls = 0;
  long long timedCalls = 0;
  double timedMs = 0;
  bool settled = false;
  int searches = 0;
  int moves = 0;
  std::vector<OnlineTuner::CandidateStats> lastSearch;
};

/// The launches of one set of sites (distwar/launch.h), owned by the
/// registry so that the report written at exit still has them. Guarded by
/// the registry's mutex.
class LaunchReporter {
public:
  virtual ~LaunchReporter() = default;
  virtual LaunchSummary summary() = 0;
  /// Whether a search of thresholds is running on some device: its times
  /// are being compared, so other choices should not move under it.
  virtual bool searching() const = 0;
};

/// A choice among a launch's kernel variants (distwar/variant_launch.h),
/// owned by the registry for the same reason. Guarded by the registry's
/// mutex.
class ChoiceReporter {
public:
  virtual ~ChoiceReporter() = default;
  /// The report's lines (JSON objects, no newline).
  virtual std::vector<std::string> reportLines() = 0;
};

#if defined(__GNUC__) || defined(__clang__)
#define DISTWAR_PER_BINARY __attribute__((visibility("hidden")))
#else
#define DISTWAR_PER_BINARY
#endif

class SiteRegistry {
public:
  DISTWAR_PER_BINARY static SiteRegistry &instance() {
    static SiteRegistry registry;
    return registry;
  }

  /// \p table's value holds each site's initial value, or is empty for 0.
  SiteTable *add(SiteTable table) {
    std::lock_guard<std::mutex> lock(mutex);
    if (table.value.empty())
      table.value.assign(table.names.size(), 0);
    table.origin.assign(table.names.size(), ThresholdOrigin::kDefault);
    for (size_t k = 0; k < table.names.size(); ++k) {
      const int t = env.thresholdFor(table.names[k]);
      if (t >= 0) {
        table.value[k] = t;
        table.origin[k] = ThresholdOrigin::kEnvironment;
      }
    }
    return &*tables.insert(tables.end(), std::move(table));
  }
  /// The record stays (the report and launch tuning hold it); it is only
  /// never written again.
  void remove(SiteTable *table) {
    std::lock_guard<std::mutex> lock(mutex);
    table->symbol = nullptr;
  }

  /// The environment's error, if DISTWAR_* held a bad value; empty if none.
  const std::string &environmentError() const { return envError; }
  const Environment &environment() const { return env; }

  /// Writes the report (see the file comment) to `path`; false on failure.
  bool writeReport(const std::string &path, bool append);

  ~SiteRegistry() {
    if (env.report.empty())
      return;
    // Several registries (one per shared object) may write one file in one
    // process: the first truncates it, the others append.
    const std::string pid = std::to_string(
#ifdef _WIN32
        _getpid()
#else
        getpid()
#endif
    );
    const char *owner = std::getenv("DISTWAR_REPORT_PID");
    const bool append = owner && pid == owner;
    if (writeReport(env.report, append)) {
#ifdef _WIN32
      _putenv_s("DISTWAR_REPORT_PID", pid.c_str());
#else
      setenv("DISTWAR_REPORT_PID", pid.c_str(), 1);
#endif
    } else {
      std::fprintf(stderr, "distwar: cannot write DISTWAR_REPORT=%s\n",
                   env.report.c_str());
    }
  }

  std::mutex mutex;
  std::list<SiteTable> tables;
  /// Launch tuning of each set of sites, shared by every launch statement
  /// of it.
  std::map<std::vector<SiteEntry>, std::unique_ptr<LaunchReporter>> launches;
  /// Every choice among kernel variants, in the order they were made.
  std::vector<std::unique_ptr<ChoiceReporter>> choices;

  /// Whether some wrapped launch is searching for its thresholds.
  bool launchSearching() const {
    for (const auto &launch : launches)
      if (launch.second->searching())
        return true;
    return false;
  }
  /// Counts the writes of the setters and of KernelTuners, so that launch
  /// tuning knows the device tables may have changed under it.
  unsigned long long generation = 0;

private:
  SiteRegistry() {
    try {
      env = readEnvironment();
    } catch (const std::invalid_argument &e) {
      envError = e.what();
    }
  }

  Environment env;
  std::string envError;
};

inline void checkCuda(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("distwar: ") + what + ": " +
                             cudaGetErrorString(err));
}

inline void checkThreshold(int t) {
  if (!isSiteValue(t))
    throw std::out_of_range("distwar: threshold " + std::to_string(t) +
                            " outside 0..34 and kSerialForm + 0..32");
}

/// Writes `values[k]` into entry k of `table` for every k with a value >= 0,
/// on the current device, one copy per run of equal values. Pageable
/// sources are staged before cudaMemcpyToSymbolAsync returns, so `values`
/// may die after the call.
inline cudaError_t copyToTable(const SiteTable &table,
                               const std::vector<int> &values,
                               cudaStream_t stream, bool async) {
  for (size_t first = 0; first < values.size();) {
    if (values[first] < 0) {
      ++first;
      continue;
    }
    size_t last = first + 1;
    while (last < values.size() && values[last] == values[first])
      ++last;
    const size_t offset = first * sizeof(int);
    const size_t bytes = (last - first) * sizeof(int);
    const std::vector<int> run(last - first, values[first]);
    cudaError_t err =
        async ? cudaMemcpyToSymbolAsync(table.symbol, run.data(), bytes, offset,
                                        cudaMemcpyHostToDevice, stream)
              : cudaMemcpyToSymbol(table.symbol, run.data(), bytes, offset,
                                   cudaMemcpyHostToDevice);
    if (err != cudaSuccess)
      return err;
    first = last;
  }
  return cudaSuccess;
}

/// Sets every entry named `name` (every entry when null) to t, recorded as
/// coming from `origin`, and writes the current device's tables,
/// stream-ordered on `stream` when async. Entries the environment set keep
/// their value unless the program sets them. Returns the number of tables
/// touched.
inline int writeThreshold(const std::string *name, int t, cudaStream_t stream,
                          bool async,
                          ThresholdOrigin origin = ThresholdOrigin::kProgram) {
  checkThreshold(t);
  SiteRegistry &registry = SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  ++registry.generation;
  int touched = 0;
  for (SiteTable &table : registry.tables) {
    if (!table.symbol)
      continue;
    std::vector<int> values(table.names.size(), -1);
    bool hit = false;
    for (size_t k = 0; k < table.names.size(); ++k) {
      if (name && table.names[k] != *name)
        continue;
      hit = true;
      const bool keep = origin != ThresholdOrigin::kProgram &&
                        table.origin[k] == ThresholdOrigin::kEnvironment;
      if (!keep) {
        table.value[k] = t;
        table.origin[k] = origin;
      }
      values[k] = table.value[k];
    }
    if (!hit)
      continue;
    checkCuda(copyToTable(table, values, stream, async),
              ("setting a threshold in " + table.table).c_str());
    ++touched;
  }
  return touched;
}

/// Nonzero while a KernelTuner runs a launch on this thread: the launches
/// it makes leave the thresholds to it (distwar/launch.h).
DISTWAR_PER_BINARY inline int &kernelTunerDepth() {
  thread_local int depth = 0;
  return depth;
}

/// Registers one table for the lifetime of the object (the static object that
/// DISTWAR_SITES defines).
class SiteRegistration {
public:
  /// \p initial: each site's value in the device table before anything sets
  /// one (DISTWAR_SITES_INITIAL), or null for 0.
  SiteRegistration(const char *table, const char *const *names, int count,
                   const void *symbol, const int *initial = nullptr);
  ~SiteRegistration() { SiteRegistry::instance().remove(entry); }
  SiteRegistration(const SiteRegistration &) = delete;
  SiteRegistration &operator=(const SiteRegistration &) = delete;

private:
  SiteTable *entry;
};

inline const char *originName(ThresholdOrigin origin) {
  switch (origin) {
  case ThresholdOrigin::kDefault:
    return "default";
  case ThresholdOrigin::kEnvironment:
    return "environment";
  case ThresholdOrigin::kProgram:
    return "program";
  case ThresholdOrigin::kKernelTuner:
    return "kernel-tuner";
  case ThresholdOrigin::kLaunchTuner:
    return "tuned";
  }
  return "default";
}

inline std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x",
                    static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// The shortest text of \p v that reads back as the same double.
inline std::string jsonNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// The report is built with std::string, not iostreams: an extension built by
// a newer g++ than the libstdc++ its process loaded (PyTorch's wheels) must
// not call into that library's stream internals.
inline bool SiteRegistry::writeReport(const std::string &path, bool append) {
  std::string out;
  std::lock_guard<std::mutex> lock(mutex);
  if (!envError.empty())
    out += "{\"error\": " + jsonString(envError) + "}\n";
  // Launch summaries per entry.
  std::map<SiteEntry, std::vector<LaunchSummary>> perEntry;
  for (auto &launch : launches) {
    LaunchSummary s = launch.second->summary();
    for (const SiteEntry &e : launch.first)
      perEntry[e].push_back(s);
  }
  for (SiteTable &table : tables) {
    for (size_t k = 0; k < table.names.size(); ++k) {
      std::string how = originName(table.origin[k]);
      LaunchSummary all;
      auto it = perEntry.find(SiteEntry{&table, static_cast<int>(k)});
      const LaunchSummary *tuned = nullptr;
      if (it != perEntry.end()) {
        for (const LaunchSummary &s : it->second) {
          all.kernels += (all.kernels.empty() ? "" : ",") + s.kernels;
          all.calls += s.calls;
          all.timedCalls += s.timedCalls;
          all.timedMs += s.timedMs;
          if (s.searches > 0)
            tuned = &s;
        }
      }
      if (table.origin[k] == ThresholdOrigin::kLaunchTuner && tuned &&
          !tuned->settled)
        how = "searching";
      out += "{\"site\": " + jsonString(table.names[k]) +
             ", \"table\": " + jsonString(table.table) +
             ", \"threshold\": " + std::to_string(thresholdOf(table.value[k])) +
             (asksSerialForm(table.value[k]) ? ", \"form\": \"serial\"" : "") +
             ", \"how\": \"" + how +
             "\", \"kernels\": " + jsonString(all.kernels) +
             ", \"calls\": " + std::to_string(all.calls) +
             ", \"timed_calls\": " + std::to_string(all.timedCalls) +
             ", \"mean_ms\": " +
             jsonNumber(all.timedCalls ? all.timedMs / all.timedCalls : 0.0);
      if (tuned && table.origin[k] == ThresholdOrigin::kLaunchTuner) {
        out += ", \"searches\": " + std::to_string(tuned->searches) +
               ", \"moves\": " + std::to_string(tuned->moves) +
               ", \"last_search\": {";
        bool first = true;
        for (const OnlineTuner::CandidateStats &c : tuned->lastSearch) {
          if (!c.samples)
            continue;
          out += std::string(first ? "" : ", ") + "\"" +
                 siteValueName(c.threshold) +
                 "\": {\"ms\": " + jsonNumber(c.meanMs) +
                 ", \"n\": " + std::to_string(c.samples) +
                 (c.remaining ? "" : ", \"dropped\": true") + "}";
          first = false;
        }
        out += "}";
      }
      out += "}\n";
    }
  }
  for (const std::unique_ptr<ChoiceReporter> &choice : choices)
    for (const std::string &line : choice->reportLines())
      out += line + "\n";
  std::FILE *f = std::fopen(path.c_str(), append ? "a" : "w");
  if (!f)
    return false;
  const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  return std::fclose(f) == 0 && ok;
}

} // namespace detail

/// Every registered site name, sorted, without duplicates.
inline std::vector<std::string> siteNames() {
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<std::string> names;
  for (const detail::SiteTable &table : registry.tables)
    if (table.symbol)
      names.insert(names.end(), table.names.begin(), table.names.end());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

/// Sets site `name` to t (0..34, or kSerialForm | 0..32 for the serial form
/// of a site with both: distwar/threshold_values.h) in every table
/// that has it, on the current device; synchronous. Returns the number of
/// tables updated (0: unknown).
/// Launch tuning leaves the site alone from then on.
inline int setSiteThreshold(const std::string &name, int t) {
  return detail::writeThreshold(&name, t, nullptr, /*async=*/false);
}

/// As setSiteThreshold, ordered on `stream`.
inline int setSiteThresholdAsync(const std::string &name, int t,
                                 cudaStream_t stream) {
  return detail::writeThreshold(&name, t, stream, /*async=*/true);
}

/// Sets every registered site to t on the current device.
inline void setAllSiteThresholds(int t) {
  detail::writeThreshold(nullptr, t, nullptr, /*async=*/false);
}

/// As setAllSiteThresholds, ordered on `stream`.
inline void setAllSiteThresholdsAsync(int t, cudaStream_t stream) {
  detail::writeThreshold(nullptr, t, stream, /*async=*/true);
}

/// Writes the thresholds that DISTWAR_THRESHOLD set into the current
/// device's tables, ordered on `stream`. Wrapped launches and KernelTuners
/// do it themselves; this is for sites launched by neither.
inline void applyEnvironmentThresholds(cudaStream_t stream = nullptr) {
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const detail::SiteTable &table : registry.tables) {
    if (!table.symbol)
      continue;
    std::vector<int> values(table.names.size(), -1);
    for (size_t k = 0; k < values.size(); ++k)
      if (table.origin[k] == ThresholdOrigin::kEnvironment)
        values[k] = table.value[k];
    detail::checkCuda(detail::copyToTable(table, values, stream, true),
                      ("setting a threshold in " + table.table).c_str());
  }
}

/// The threshold of `name` on the current device (read back from the first
/// table that has it); -1 if no table has it.
inline int siteThreshold(const std::string &name) {
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const detail::SiteTable &table : registry.tables) {
    if (!table.symbol)
      continue;
    for (size_t k = 0; k < table.names.size(); ++k) {
      if (table.names[k] != name)
        continue;
      int value = -1;
      detail::checkCuda(cudaMemcpyFromSymbol(&value, table.symbol, sizeof(int),
                                             k * sizeof(int),
                                             cudaMemcpyDeviceToHost),
                        ("reading a threshold from " + table.table).c_str());
      return value;
    }
  }
  return -1;
}

} // namespace distwar

/// The report of this program's (shared object's) registry, written to
/// `path` now; 0 on success. C linkage, so that Python reaches it through
/// ctypes in a PyTorch extension (distwar.torch.write_report).
#if defined(__GNUC__) || defined(__clang__)
#define DISTWAR_EXPORTED __attribute__((used, visibility("default")))
#else
#define DISTWAR_EXPORTED
#endif
extern "C" DISTWAR_EXPORTED inline int distwar_write_report(const char *path) {
  return path && distwar::detail::SiteRegistry::instance().writeReport(
                     path, /*append=*/false)
             ? 0
             : -1;
}

namespace distwar {
namespace detail {

inline SiteRegistration::SiteRegistration(const char *table,
                                          const char *const *names, int count,
                                          const void *symbol,
                                          const int *initial) {
  SiteTable t;
  t.table = table;
  t.names.assign(names, names + count);
  t.symbol = symbol;
  if (initial) {
    for (int k = 0; k < count; ++k)
      checkThreshold(initial[k]);
    t.value.assign(initial, initial + count);
  }
  entry = SiteRegistry::instance().add(std::move(t));
  // Odr-use keeps the report entry point in every binary with a table.
  static int (*volatile keep)(const char *) = &distwar_write_report;
  (void)keep;
}

} // namespace detail
} // namespace distwar

#endif // DISTWAR_SITES_H
