//===- SitesTest.cpp - Site thresholds by name across TUs, and the tuner --===//
//
// Two TUs (SitesA.cu, SitesB.cu) each define a site table; "shared#0" is in
// both. Setting by name must reach every table, on the device. Then the
// autotuner on a real launch: tuning calls leave exactly one launch's output.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"

#include <distwar/autotune.h>
#include <distwar/sites.h>

#include <stdexcept>
#include <string>
#include <vector>

std::vector<int> readSitesA(); // {shared#0, onlyA#0}
std::vector<int> readSitesB(); // {onlyB#0, shared#0}
void launchCount(unsigned long long *counts, int n, cudaStream_t stream);

namespace {

void testSiteTables(gpucheck::Tally &tally) {
  using V = std::vector<int>;
  tally.check(distwar::siteNames() ==
                  std::vector<std::string>{"onlyA#0", "onlyB#0", "shared#0"},
              "siteNames lists both tables' sites once each");
  tally.check(readSitesA() == V{0, 0} && readSitesB() == V{0, 0},
              "tables start at zero");
  tally.check(distwar::setSiteThreshold("shared#0", 7) == 2,
              "shared name updates two tables");
  tally.check(readSitesA() == V{7, 0} && readSitesB() == V{0, 7},
              "shared#0 set in both TUs");
  tally.check(distwar::setSiteThreshold("onlyB#0", 33) == 1, "onlyB#0");
  tally.check(readSitesA() == V{7, 0} && readSitesB() == V{33, 7},
              "onlyB#0 set in its TU only");
  tally.check(distwar::setSiteThreshold("nothing#0", 5) == 0, "unknown name");
  tally.check(distwar::siteThreshold("shared#0") == 7 &&
                  distwar::siteThreshold("onlyB#0") == 33 &&
                  distwar::siteThreshold("nothing#0") == -1,
              "siteThreshold reads back");
  tally.check(distwar::setSiteThreshold("onlyA#0", distwar::kBlockStrategy) ==
                      1 &&
                  readSitesA() == V{7, 34},
              "34 (the block strategy) is a site value");
  bool threw = false;
  try {
    distwar::setSiteThreshold("shared#0", 35);
  } catch (const std::out_of_range &) {
    threw = true;
  }
  tally.check(threw && readSitesA()[0] == 7, "35 is refused, nothing changed");
  distwar::setAllSiteThresholds(16);
  tally.check(readSitesA() == V{16, 16} && readSitesB() == V{16, 16},
              "setAllSiteThresholds");
  cudaStream_t stream;
  gpucheck::require(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                    "stream");
  distwar::setSiteThresholdAsync("onlyA#0", 3, stream);
  gpucheck::require(cudaStreamSynchronize(stream), "sync");
  tally.check(readSitesA() == V{16, 3}, "setSiteThresholdAsync");
  cudaStreamDestroy(stream);
  distwar::setAllSiteThresholds(0);
}

void testTuner(gpucheck::Tally &tally, distwar::SearchMode mode) {
  const int n = 1 << 16, slots = n / 32;
  unsigned long long *counts;
  gpucheck::require(cudaMalloc(&counts, slots * sizeof(unsigned long long)),
                    "cudaMalloc");
  gpucheck::require(cudaMemset(counts, 0, slots * sizeof(unsigned long long)),
                    "cudaMemset");
  cudaStream_t stream;
  gpucheck::require(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                    "stream");
  distwar::TunerOptions options;
  options.retuneInterval = 4;
  options.mode = mode;
  options.localRetune = false; // every tuning runs the full search
  distwar::KernelTuner tuner({"shared#0"}, options);
  const int calls = 10;
  for (int c = 0; c < calls; ++c)
    tuner.run(stream, {{counts, slots * sizeof(unsigned long long)}},
              [&] { launchCount(counts, n, stream); });
  gpucheck::waitOrDie("tuned launches");
  gpucheck::require(cudaStreamSynchronize(stream), "sync");
  std::vector<unsigned long long> h(slots);
  gpucheck::require(cudaMemcpy(h.data(), counts, slots * sizeof(h[0]),
                               cudaMemcpyDeviceToHost),
                    "cudaMemcpy");
  bool exact = true;
  for (unsigned long long v : h)
    exact &= v == 32ull * calls;
  const std::string m =
      mode == distwar::SearchMode::kExhaustive ? "exhaustive" : "coarse";
  tally.check(exact, m + ": outputs equal " + std::to_string(calls) +
                         " launches despite tuning trials");
  distwar::TunerStats s = tuner.stats();
  tally.check(s.calls == calls && s.tunings == 3,
              m + ": tuned on calls 1, 5 and 9 (" + std::to_string(s.tunings) +
                  " tunings)");
  // 34 runs as plain atomics here (no block site), as 33 does.
  tally.check(s.threshold >= 1 && s.threshold <= 34 &&
                  distwar::siteThreshold("shared#0") == s.threshold,
              m + ": tuned threshold is in force on the device");
  // Coarse-to-fine runs 12 trials (the grid and 34, then halving), fewer
  // when the best is near 1 or 33.
  const size_t trials = s.lastTrials.size();
  tally.check(mode == distwar::SearchMode::kExhaustive
                  ? trials == 34u
                  : trials >= 6u && trials <= 12u,
              m + ": trial count " + std::to_string(trials));
  std::printf("%s tuning: best threshold %d, %.4f ms, overhead %.3f ms over "
              "%.3f ms of kernels\n",
              m.c_str(), s.threshold, s.bestMs, s.overheadMs, s.kernelMs);

  distwar::TunerOptions forced = options;
  forced.forcedThreshold = 33;
  distwar::KernelTuner pinned({"shared#0"}, forced);
  pinned.run(stream, {}, [&] { launchCount(counts, n, stream); });
  gpucheck::require(cudaStreamSynchronize(stream), "sync");
  tally.check(distwar::siteThreshold("shared#0") == 33 &&
                  pinned.stats().tunings == 0,
              m + ": a forced threshold is set, never tuned");
  cudaStreamDestroy(stream);
  cudaFree(counts);
}

} // namespace

int main() {
  gpucheck::skipWithoutDevice();
  gpucheck::Tally tally;
  try {
    testSiteTables(tally);
    testTuner(tally, distwar::SearchMode::kExhaustive);
    testTuner(tally, distwar::SearchMode::kCoarseToFine);
  } catch (const std::exception &e) {
    tally.check(false, std::string("exception: ") + e.what());
  }
  return tally.finish();
}
