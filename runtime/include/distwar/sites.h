//===- distwar/sites.h - Per-site thresholds, set by name at run time ----===//
//
// Every rewritten translation unit defines, through DISTWAR_SITES, a
// `static __constant__ int` table with one threshold per batched call site and
// registers it here when the program starts. The host sets thresholds by site
// name; a name may appear in several tables (several rewritten TUs linked
// together, each with its own table, no -rdc needed) and is set in all.
//
// Header-only so that rewritten code compiles and links with nothing but the
// CUDA runtime. The registry is a function-local static of an inline function:
// one per program (per shared object where symbols are not shared). No CUDA
// call happens at registration; device tables are written by the setters,
// on the current device (tables are per device).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_SITES_H
#define DISTWAR_SITES_H

#include <cuda_runtime_api.h>

#include <algorithm>
#include <list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace distwar {

/// Threshold bounds (see distwar/reduce.cuh): 0..32 lanes, 33 never reduce.
constexpr int kMinThreshold = 0;
constexpr int kMaxThreshold = 33;

namespace detail {

struct SiteTable {
  std::string table;              // the C identifier, for messages
  std::vector<std::string> names; // names[k] is the site of table[k]
  const void *symbol;             // host shadow of the __device__ array
};

class SiteRegistry {
public:
  static SiteRegistry &instance() {
    static SiteRegistry registry;
    return registry;
  }

  std::list<SiteTable>::iterator add(SiteTable table) {
    std::lock_guard<std::mutex> lock(mutex);
    return tables.insert(tables.end(), std::move(table));
  }
  void remove(std::list<SiteTable>::iterator it) {
    std::lock_guard<std::mutex> lock(mutex);
    tables.erase(it);
  }

  std::mutex mutex;
  std::list<SiteTable> tables;
};

inline void checkCuda(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("distwar: ") + what + ": " +
                             cudaGetErrorString(err));
}

inline void checkThreshold(int t) {
  if (t < kMinThreshold || t > kMaxThreshold)
    throw std::out_of_range("distwar: threshold " + std::to_string(t) +
                            " outside 0..33");
}

/// Registers one table for the lifetime of the object (the static object that
/// DISTWAR_SITES defines).
class SiteRegistration {
public:
  SiteRegistration(const char *table, const char *const *names, int count,
                   const void *symbol)
      : it(SiteRegistry::instance().add(SiteTable{
            table, std::vector<std::string>(names, names + count), symbol})) {}
  ~SiteRegistration() { SiteRegistry::instance().remove(it); }
  SiteRegistration(const SiteRegistration &) = delete;
  SiteRegistration &operator=(const SiteRegistration &) = delete;

private:
  std::list<SiteTable>::iterator it;
};

/// Writes t into every table entry named `name` (all entries when name is
/// null), stream-ordered on `stream`. Returns the number of tables touched.
inline int writeThreshold(const std::string *name, int t, cudaStream_t stream,
                          bool async) {
  checkThreshold(t);
  SiteRegistry &registry = SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  int touched = 0;
  for (const SiteTable &table : registry.tables) {
    // Pageable sources are staged before cudaMemcpyToSymbolAsync returns, so
    // `values` may die after the call.
    const std::vector<int> values(table.names.size(), t);
    auto copy = [&](size_t first, size_t count) {
      const size_t offset = first * sizeof(int);
      const size_t bytes = count * sizeof(int);
      cudaError_t err =
          async
              ? cudaMemcpyToSymbolAsync(table.symbol, &values[first], bytes,
                                        offset, cudaMemcpyHostToDevice, stream)
              : cudaMemcpyToSymbol(table.symbol, &values[first], bytes, offset,
                                   cudaMemcpyHostToDevice);
      checkCuda(err, ("setting a threshold in " + table.table).c_str());
    };
    bool hit = false;
    if (name == nullptr) {
      copy(0, values.size());
      hit = true;
    } else {
      for (size_t k = 0; k < table.names.size(); ++k) {
        if (table.names[k] == *name) {
          copy(k, 1);
          hit = true;
        }
      }
    }
    touched += hit ? 1 : 0;
  }
  return touched;
}

} // namespace detail

/// Every registered site name, sorted, without duplicates.
inline std::vector<std::string> siteNames() {
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<std::string> names;
  for (const detail::SiteTable &table : registry.tables)
    names.insert(names.end(), table.names.begin(), table.names.end());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

/// Sets site `name` to t (0..33) in every table that has it, on the current
/// device; synchronous. Returns the number of tables updated (0: unknown).
inline int setSiteThreshold(const std::string &name, int t) {
  return detail::writeThreshold(&name, t, nullptr, /*async=*/false);
}

/// As setSiteThreshold, ordered on `stream` (for changing thresholds between
/// launches on a non-default stream, as the autotuner does).
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

/// The threshold of `name` on the current device (read back from the first
/// table that has it); -1 if no table has it.
inline int siteThreshold(const std::string &name) {
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const detail::SiteTable &table : registry.tables) {
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

#endif // DISTWAR_SITES_H
