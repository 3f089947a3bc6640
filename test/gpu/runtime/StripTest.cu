//===- StripTest.cu - A strip's laps reduced together equal plain atomics -===//
//
// runStrips and reduceStrip as distwar-rewrite emits them: a loop of
// `trips` iterations whose key is the iteration (the same in every lane),
// run as passes of kStripLaps laps, each lap keeping its batch, the laps
// reduced together after the lap loop, in the version runStrips picks for
// the warp (and a check that it picks the halving exactly where it may).
// Compared with a CPU sum of what plain atomics add, on fresh random inputs
// with the outputs poisoned to a base value: element types float, double, int
// and unsigned long long; 1 to 17 fields per lap (two laps of 17 are 64 values:
// two per lane after the halving); trip counts that end a pass early;
// thresholds that reduce and that do not (33); whole warps, and warps some of
// whose lanes returned (plain atomics); a tracked slot that no lane sets, and
// one set with a null address.
// `--small` runs a subset for compute-sanitizer.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"

#include <distwar/runtime.cuh>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kBlock = 128;
constexpr int kMaxTrips = 7;

/// Slot N - 1 is tracked (under a condition the same in every lane); every
/// other slot is always set.
template <typename T, int N>
using StripBatch = distwar::Batch<T, N, distwar::AlwaysSet<0, N - 1>>;

/// The rewriter's output for `for (t = 0; t < trips; ++t) { atomicAdd(...)
/// x N }`, the last field's add under `if (lastSet)` (a null address when
/// lastNull). Threads at or past `live` return first.
template <typename T, int N>
__global__ void stripKernel(T *out, const T *vals, int trips, int live,
                            int threshold, bool lastSet, bool lastNull) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= live)
    return;
  distwar::runStrips(threshold, [&](auto full) {
    for (int t0 = 0; t0 < trips; t0 += distwar::kStripLaps) {
      distwar::Strip<StripBatch<T, N>, distwar::kStripLaps> strip;
      bool end = false;
#pragma unroll
      for (int lap = 0; lap < distwar::kStripLaps; ++lap) {
        const int t = t0 + lap;
        if (lap > 0 && !(t < trips)) {
          end = true;
          break;
        }
        StripBatch<T, N> b;
#pragma unroll
        for (int k = 0; k < N - 1; ++k)
          b.set(k, &out[t * N + k], vals[(i * kMaxTrips + t) * N + k]);
        if (lastSet)
          b.set(N - 1, lastNull ? nullptr : &out[t * N + N - 1],
                vals[(i * kMaxTrips + t) * N + N - 1]);
        strip.keep(lap, b);
      }
      distwar::reduceStrip(strip, full);
      if (end)
        break;
    }
  });
}

/// Which version runStrips runs: 1 the halving, 0 plain atomics, per thread.
__global__ void versionKernel(int *version, int live, int threshold) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= live)
    return;
  distwar::runStrips(threshold, [&](auto full) {
    version[i] = decltype(full)::value ? 1 : 0;
  });
}

/// A whole warp whose threshold lets 32 lanes reduce halves; a warp with
/// absent lanes, or at threshold 33, adds plainly.
void checkVersions(gpucheck::Tally &tally) {
  for (int threshold : {0, 32, 33})
    for (int live : {kThreads, kThreads - 19}) {
      int *dVersion = gpucheck::upload(std::vector<int>(kThreads, -1));
      versionKernel<<<kThreads / kBlock, kBlock>>>(dVersion, live, threshold);
      const std::string what = "runStrips version, threshold " +
                               std::to_string(threshold) + " live " +
                               std::to_string(live);
      gpucheck::require(cudaGetLastError(), what.c_str());
      gpucheck::waitOrDie(what);
      const std::vector<int> version = gpucheck::download(dVersion, kThreads);
      cudaFree(dVersion);
      bool ok = true;
      for (int i = 0; i < kThreads; ++i) {
        const bool wholeWarp = (i / 32 + 1) * 32 <= live;
        const int want = i >= live ? -1 : wholeWarp && threshold <= 32 ? 1 : 0;
        ok = ok && version[i] == want;
      }
      tally.check(ok, what);
    }
}

using gpucheck::randomValue;
using gpucheck::typeName;

template <typename T, int N>
void runCase(gpucheck::Tally &tally, std::mt19937 &rng, int trips, int live,
             int threshold, bool lastSet, bool lastNull) {
  const std::string what =
      std::string("strip ") + typeName<T>() + " N=" + std::to_string(N) +
      " trips " + std::to_string(trips) + " live " + std::to_string(live) +
      " threshold " + std::to_string(threshold) +
      (lastSet ? (lastNull ? " (last slot null)" : "") : " (last slot unset)");
  std::vector<T> vals(static_cast<size_t>(kThreads) * kMaxTrips * N);
  for (T &v : vals)
    v = randomValue<T>(rng);
  const T base = T(3);
  T *dOut = gpucheck::upload(
      std::vector<T>(static_cast<size_t>(kMaxTrips) * N, base));
  T *dVals = gpucheck::upload(vals);
  stripKernel<T, N><<<kThreads / kBlock, kBlock>>>(
      dOut, dVals, trips, live, threshold, lastSet, lastNull);
  gpucheck::require(cudaGetLastError(), what.c_str());
  gpucheck::waitOrDie(what);
  const std::vector<T> out =
      gpucheck::download(dOut, static_cast<size_t>(kMaxTrips) * N);
  cudaFree(dOut);
  cudaFree(dVals);

  std::vector<T> refInt(out.size(), base);
  std::vector<double> refSum(out.size(), static_cast<double>(base));
  std::vector<double> magnitude(out.size(), std::fabs(double(base)));
  for (int i = 0; i < live; ++i)
    for (int t = 0; t < trips; ++t)
      for (int k = 0; k < N; ++k) {
        if (k == N - 1 && (!lastSet || lastNull))
          continue;
        const T v = vals[(static_cast<size_t>(i) * kMaxTrips + t) * N + k];
        refInt[t * N + k] += v;
        refSum[t * N + k] += static_cast<double>(v);
        magnitude[t * N + k] += std::fabs(static_cast<double>(v));
      }
  bool ok = true;
  for (size_t s = 0; s < out.size() && ok; ++s) {
    if constexpr (std::is_floating_point<T>::value)
      ok = std::fabs(static_cast<double>(out[s]) - refSum[s]) <=
           (std::is_same<T, float>::value ? 1e-6 : 1e-12) * magnitude[s];
    else
      ok = out[s] == refInt[s];
    if (!ok)
      std::printf("  element %zu (iteration %zu field %zu): got %.17g want "
                  "%.17g\n",
                  s, s / N, s % N, static_cast<double>(out[s]),
                  std::is_floating_point<T>::value
                      ? refSum[s]
                      : static_cast<double>(refInt[s]));
  }
  tally.check(ok, what);
}

template <typename T, int N>
void runSize(gpucheck::Tally &tally, std::mt19937 &rng, bool small) {
  const int tripCounts[] = {0, 1, 2, 3, kMaxTrips};
  // Every lane, and the last warp with 19 lanes returned.
  const int lives[] = {kThreads, kThreads - 19};
  const int thresholds[] = {0, 32, 33};
  for (int trips : tripCounts)
    for (int live : lives)
      for (int threshold : thresholds) {
        if (small && (threshold == 32 || trips == 2))
          continue;
        runCase<T, N>(tally, rng, trips, live, threshold, true, false);
        if (N >= 2 && trips == kMaxTrips) {
          runCase<T, N>(tally, rng, trips, live, threshold, false, false);
          runCase<T, N>(tally, rng, trips, live, threshold, true, true);
        }
      }
}

template <typename T>
void runType(gpucheck::Tally &tally, std::mt19937 &rng, bool small) {
  runSize<T, 1>(tally, rng, small);
  runSize<T, 3>(tally, rng, small);
  if (small)
    return;
  runSize<T, 5>(tally, rng, small);
  runSize<T, 17>(tally, rng, small);
}

} // namespace

int main(int argc, char **argv) {
  gpucheck::skipWithoutDevice();
  bool small = false;
  for (int i = 1; i < argc; ++i)
    small |= std::strcmp(argv[i], "--small") == 0;
  std::random_device seedSource;
  const unsigned seed = seedSource();
  std::printf("seed %u%s\n", seed, small ? " (small)" : "");
  std::mt19937 rng(seed);
  gpucheck::Tally tally;
  checkVersions(tally);
  runType<float>(tally, rng, small);
  runType<double>(tally, rng, small);
  runType<int>(tally, rng, small);
  runType<unsigned long long>(tally, rng, small);
  return tally.finish();
}
