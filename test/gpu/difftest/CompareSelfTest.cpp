//===- CompareSelfTest.cpp - The tolerance is sound and still sensitive ---===//
//
// Host only (runs in CI): sums of non-negative floats in other orders
// (reversed, shuffled, pairwise like a shuffle tree) never fail
// compareBuffer against the sequential sum; a sum missing one term, or with
// one doubled, fails as soon as that term exceeds the floor
// 2 gamma(n + 1) S; a warp's worth of terms (32) always does here; integers
// and plain stores compare exactly.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

using difftest::Bytes;

namespace {

int failures = 0;
int singleTermChecks = 0;

void expect(bool ok, const char *what, int trial) {
  if (!ok && failures++ < 20)
    std::printf("FAIL: %s (trial %d)\n", what, trial);
}

template <typename T> Bytes bytesOf(const std::vector<T> &v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T> T sequential(T start, const std::vector<T> &terms) {
  T s = start;
  for (T t : terms)
    s += t;
  return s;
}

template <typename T> T pairwise(const std::vector<T> &terms) {
  std::vector<T> level = terms;
  while (level.size() > 1) {
    std::vector<T> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2)
      next.push_back(level[i] + level[i + 1]);
    if (level.size() % 2)
      next.push_back(level.back());
    level = next;
  }
  return level.empty() ? T(0) : level[0];
}

/// One element: `got` against `ref` with `n` terms (no run-to-run spread).
template <typename T>
bool matches(difftest::Elem elem, T got, T ref, double n) {
  const difftest::BufferSpec spec = {"g", elem, difftest::kAtomic, 1, false};
  const Bytes terms = bytesOf(std::vector<T>{static_cast<T>(n)});
  const Bytes r = bytesOf(std::vector<T>{ref});
  return difftest::compareBuffer(spec, bytesOf(std::vector<T>{got}), r, r,
                                 terms)
             .count == 0;
}

template <typename T> void reorderings(difftest::Elem elem, int trials) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < trials; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 6000);
    std::vector<T> terms(n);
    // Magnitudes over several decades, as gradients have.
    for (T &t : terms)
      t = static_cast<T>(unit(rng) * std::pow(10.0, -3.0 * unit(rng)));
    const T start = static_cast<T>(unit(rng));
    const T ref = sequential(start, terms);
    std::vector<T> reversed(terms.rbegin(), terms.rend());
    std::vector<T> shuffled = terms;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    // A warp-style reduction: groups of 32 summed as a tree, then added.
    T warps = start;
    for (int b = 0; b < n; b += 32) {
      std::vector<T> lanes(shuffled.begin() + b,
                           shuffled.begin() + std::min(n, b + 32));
      warps += pairwise(lanes);
    }
    expect(matches(elem, sequential(start, reversed), ref, n),
           "reversed order within the tolerance", trial);
    expect(matches(elem, sequential(start, shuffled), ref, n),
           "shuffled order within the tolerance", trial);
    expect(matches(elem, warps, ref, n), "warp trees within the tolerance",
           trial);
    expect(matches(elem, start + pairwise(shuffled), ref, n),
           "one pairwise tree within the tolerance", trial);

    // Sensitivity: a term larger than the floor, dropped or doubled.
    const double u = std::numeric_limits<T>::epsilon() / 2;
    const double floor = difftest::sumTolerance(n, ref, 0, u);
    const size_t big =
        std::max_element(terms.begin(), terms.end()) - terms.begin();
    if (terms[big] > 1.01 * floor + 4 * u * ref) {
      ++singleTermChecks;
      std::vector<T> dropped = shuffled;
      dropped.erase(std::find(dropped.begin(), dropped.end(), terms[big]));
      expect(!matches(elem, sequential(start, dropped), ref, n),
             "a dropped term beyond the floor is seen", trial);
      expect(!matches(elem,
                      static_cast<T>(sequential(start, shuffled) + terms[big]),
                      ref, n),
             "a doubled term beyond the floor is seen", trial);
    }
    // A warp's contributions (32 typical terms) lost or moved.
    if (n >= 64) {
      std::vector<T> lost(shuffled.begin() + 32, shuffled.end());
      expect(!matches(elem, sequential(start, lost), ref, n),
             "a lost warp is seen", trial);
    }
  }
}

void exactKinds() {
  const difftest::BufferSpec ints = {"n", difftest::kI32, difftest::kAtomic, 2,
                                     false};
  const Bytes a = bytesOf(std::vector<int>{5, 7});
  const Bytes b = bytesOf(std::vector<int>{5, 8});
  expect(difftest::compareBuffer(ints, a, a, a, a).count == 0,
         "equal integers match", 0);
  const difftest::Mismatch m = difftest::compareBuffer(ints, b, a, a, a);
  expect(m.count == 1 && m.first == 1 && m.got == "8" && m.expected == "7",
         "an integer off by one is reported with its index and values", 0);
  // Plain stores: bit for bit, NaN poison included; no tolerance.
  const difftest::BufferSpec store = {"out", difftest::kF32, difftest::kStore,
                                      2, false};
  float nan;
  const unsigned poison = 0xffffffffu;
  std::memcpy(&nan, &poison, 4);
  const Bytes s1 = bytesOf(std::vector<float>{nan, 1.0f});
  const Bytes s2 = bytesOf(std::vector<float>{nan, std::nextafter(1.0f, 2.0f)});
  expect(difftest::compareBuffer(store, s1, s1, s1, s1).count == 0,
         "poisoned stores match", 0);
  expect(difftest::compareBuffer(store, s2, s1, s1, s1).count == 1,
         "a store one ulp off is a mismatch", 0);
  size_t first = 0;
  expect(difftest::unstableElements(store, s1, s2, &first) == 1 && first == 1,
         "plain stores that differ between plain runs are unstable", 0);
  const difftest::BufferSpec sums = {"g", difftest::kF32, difftest::kAtomic, 2,
                                     false};
  expect(difftest::unstableElements(sums, s1, s2, nullptr) == 0,
         "atomic float sums may differ between plain runs", 0);
  // No terms: the start value must stay exactly.
  expect(!matches(difftest::kF32, std::nextafter(1.0f, 2.0f), 1.0f, 0),
         "an element no lane adds to stays exactly", 0);
}

} // namespace

int main() {
  reorderings<float>(difftest::kF32, 3000);
  reorderings<double>(difftest::kF64, 500);
  exactKinds();
  std::printf("%d checks of one dropped or doubled term\n", singleTermChecks);
  expect(singleTermChecks > 1000, "single terms beyond the floor were tried",
         0);
  std::printf("%s\n", failures ? "FAILED" : "compare self-test passed");
  return failures ? 1 : 0;
}
