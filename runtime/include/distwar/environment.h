//===- distwar/environment.h - Run-time control through the environment ---===//
//
// What the environment asks of the site thresholds, so that a program (a
// PyTorch training script) is controlled without C++:
//
//   DISTWAR_THRESHOLD          T             every site
//                              site=T,...    those sites (names as in the
//                                            tool's report: "renderCUDA#0")
//                              T,site=T,...  every site, some differently
//                              T is 0..34, "plain" (33: plain atomics)
//                              or "block" (34: the block strategy where a
//                              site has one, plain atomics elsewhere), or
//                              "serial:T" with T 0..32 (the serial form
//                              where a site has both forms, at T)
//   DISTWAR_AUTOTUNE           0 | 1         tuning off / on (default on)
//   DISTWAR_AUTOTUNE_INTERVAL  n >= 1        launches between re-checks
//   DISTWAR_AUTOTUNE_SEARCH    exhaustive | coarse
//   DISTWAR_REPORT             FILE          written at exit (distwar/sites.h)
//
// Header-only and free of CUDA: the site registry reads it when the first
// table registers (header-only rewritten code), the tests through a fake
// getenv. A bad value is a std::invalid_argument naming the variable.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_ENVIRONMENT_H
#define DISTWAR_ENVIRONMENT_H

#include "distwar/threshold_values.h"

#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace distwar {

/// How a first search looks for the threshold (also KernelTuner's).
enum class SearchMode {
  /// Every distinct threshold behaviour.
  kExhaustive,
  /// A coarse grid first (KernelTuner: 1, 9, ..., 33 and 34, then halving
  /// the step around the best warp threshold; launch tuning: its default
  /// candidates).
  kCoarseToFine,
};

struct Environment {
  /// DISTWAR_THRESHOLD's value for every site; -1 when not given.
  int allSites = -1;
  /// DISTWAR_THRESHOLD's site=T entries, in the order given.
  std::vector<std::pair<std::string, int>> perSite;
  bool autotuneGiven = false;
  bool autotune = true;
  /// DISTWAR_AUTOTUNE_INTERVAL; -1 when not given.
  long long interval = -1;
  bool searchGiven = false;
  SearchMode search = SearchMode::kCoarseToFine;
  /// DISTWAR_REPORT; empty when not given.
  std::string report;

  /// The threshold the environment forces on `site`, or -1.
  int thresholdFor(const std::string &site) const {
    for (auto it = perSite.rbegin(); it != perSite.rend(); ++it)
      if (it->first == site)
        return it->second;
    return allSites;
  }
};

/// A site value as the environment writes it: "T", or "serial:T" with the
/// serial form's bit (distwar/threshold_values.h).
inline std::string siteValueName(int value) {
  return asksSerialForm(value)
             ? "serial:" + std::to_string(thresholdOf(value))
             : std::to_string(value);
}

namespace detail {

[[noreturn]] inline void badEnvironment(const char *name,
                                        const std::string &value,
                                        const std::string &expected) {
  throw std::invalid_argument(std::string("distwar: ") + name + "=" + value +
                              ": expected " + expected);
}

/// A whole-string integer in lo..hi, else `failed` is set.
inline long long parseWholeInteger(const std::string &text, long long lo,
                                   long long hi, bool &failed) {
  size_t used = 0;
  long long value = 0;
  failed = false;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception &) {
    failed = true;
  }
  if (text.empty() || used != text.size() || value < lo || value > hi)
    failed = true;
  return value;
}

/// 0..34, "plain", "block" or "serial:T" (T 0..32); -1 if none of them.
inline int parseThresholdValue(const std::string &text) {
  if (text == "plain")
    return kNeverReduce;
  if (text == "block")
    return kBlockStrategy;
  bool failed = false;
  const std::string serial = "serial:";
  if (text.compare(0, serial.size(), serial) == 0) {
    long long v = parseWholeInteger(text.substr(serial.size()), kMinThreshold,
                                    kNeverReduce - 1, failed);
    return failed ? -1 : kSerialForm | static_cast<int>(v);
  }
  long long v = parseWholeInteger(text, kMinThreshold, kMaxThreshold, failed);
  return failed ? -1 : static_cast<int>(v);
}

inline void parseThresholds(const std::string &text, Environment &env) {
  const char *expected =
      "a threshold (0..34, plain, block or serial:0..32), site=threshold "
      "entries, or "
      "both, separated by commas";
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(',', begin);
    if (end == std::string::npos)
      end = text.size();
    const std::string entry = text.substr(begin, end - begin);
    const size_t eq = entry.rfind('=');
    if (eq == std::string::npos) {
      const int t = parseThresholdValue(entry);
      if (t < 0 || env.allSites >= 0)
        badEnvironment("DISTWAR_THRESHOLD", text, expected);
      env.allSites = t;
    } else {
      const std::string site = entry.substr(0, eq);
      const int t = parseThresholdValue(entry.substr(eq + 1));
      if (site.empty() || t < 0)
        badEnvironment("DISTWAR_THRESHOLD", text, expected);
      env.perSite.emplace_back(site, t);
    }
    begin = end + 1;
  }
}

} // namespace detail

/// Reads the DISTWAR_* variables through `getEnv` (unset and empty are the
/// same). Throws std::invalid_argument on a bad value.
inline Environment
readEnvironment(const std::function<const char *(const char *)> &getEnv =
                    [](const char *name) { return std::getenv(name); }) {
  Environment env;
  auto get = [&](const char *name) {
    const char *v = getEnv(name);
    return std::string(v ? v : "");
  };
  bool failed = false;
  if (std::string v = get("DISTWAR_THRESHOLD"); !v.empty())
    detail::parseThresholds(v, env);
  if (std::string v = get("DISTWAR_AUTOTUNE"); !v.empty()) {
    env.autotuneGiven = true;
    env.autotune = detail::parseWholeInteger(v, 0, 1, failed) != 0;
    if (failed)
      detail::badEnvironment("DISTWAR_AUTOTUNE", v, "0 or 1");
  }
  if (std::string v = get("DISTWAR_AUTOTUNE_INTERVAL"); !v.empty()) {
    env.interval = detail::parseWholeInteger(v, 1, 1LL << 62, failed);
    if (failed)
      detail::badEnvironment("DISTWAR_AUTOTUNE_INTERVAL", v,
                             "an integer in 1.." + std::to_string(1LL << 62));
  }
  if (std::string v = get("DISTWAR_AUTOTUNE_SEARCH"); !v.empty()) {
    env.searchGiven = true;
    if (v == "exhaustive")
      env.search = SearchMode::kExhaustive;
    else if (v == "coarse")
      env.search = SearchMode::kCoarseToFine;
    else
      detail::badEnvironment("DISTWAR_AUTOTUNE_SEARCH", v,
                             "exhaustive or coarse");
  }
  env.report = get("DISTWAR_REPORT");
  return env;
}

} // namespace distwar

#endif // DISTWAR_ENVIRONMENT_H
