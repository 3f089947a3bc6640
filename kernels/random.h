// Deterministic random numbers for the scene generators: the same preset and
// seed give the same scene on every machine (no std:: distributions, whose
// output is implementation-defined).
#pragma once

#include <cmath>
#include <cstdint>

namespace dwk {

class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() { // splitmix64
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  int below(int n) { return static_cast<int>(uniform() * n); }
  double normal() {
    double u1 = uniform(), u2 = uniform();
    if (u1 < 1e-300)
      u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

private:
  uint64_t state_;
};

} // namespace dwk
