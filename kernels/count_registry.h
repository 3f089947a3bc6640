// Host side of the atomic counting (count_atomics.cuh): the registry of the
// instrumented translation units' tables. Plain C++, for the benchmark.
#pragma once

#include <vector>

namespace dwk_count {

constexpr int kLanes = 33; // 0..32 active lanes / distinct addresses

// calls[active][distinct]: warp-level atomic calls.
struct Histogram {
  unsigned long long calls[kLanes][kLanes] = {};
};

using Reader = void (*)(Histogram &accumulate, bool reset);
inline std::vector<Reader> &readers() {
  static std::vector<Reader> all;
  return all;
}

// Sums (and optionally clears) the tables of every instrumented unit.
inline Histogram readAll(bool reset) {
  Histogram h;
  for (Reader r : readers())
    r(h, reset);
  return h;
}

} // namespace dwk_count
