//===- MicroBench.cu - Each reduction vs plain atomics under contention ---===//
//
// A 3DGS-shaped accumulation: every thread runs `kIters` iterations; in each
// one it adds 9 float gradients to the primitive `key` through one batch.
// Patterns: all lanes of a warp on one key (and many warps on few keys), 2 or
// 4 keys per warp, random keys, half of the lanes active. Variants: plain
// atomics, the no-atomic floor, and serial / butterfly / butterfly-uniform
// with each issue strategy. All variants run interleaved in one process; each
// launch is timed with CUDA events after zeroing the gradients; the median is
// reported with the speedup over plain atomics and the share of the gap to the
// floor closed, (t_plain - t) / (t_plain - t_floor). Gradients of every
// variant are compared with plain atomics (relative L2 error).
//
// Then the autotuner on the half-active butterfly: its overhead at a retune
// interval of 2000, by its own events and by wall clock.
//
// Usage: distwar_microbench [out.json] [--reps N] [--threshold T]
//
//===----------------------------------------------------------------------===//

#include <distwar/autotune.h>
#include <distwar/runtime.cuh>

#include <cuda_runtime.h>

#include <chrono>
#include <functional>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

DISTWAR_SITES(distwar_sites_MicroBench_cu, "tunedAccumulate#0");

namespace strategy = distwar::strategy;

namespace {

constexpr int kFields = 9;
constexpr int kIters = 64;
constexpr int kBlock = 256;
constexpr int kBlocks = 2048;
constexpr int kPrimitives = 4096;

enum class Pattern { kSameKey, kKeys2, kKeys4, kRandom, kHalfActive };
enum class Variant { kPlain, kFloor, kSerial, kButterfly, kUniform };

__device__ __forceinline__ unsigned hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

template <Pattern P>
__device__ __forceinline__ void lanePlan(int j, bool &active, int &key) {
  const int lane = threadIdx.x & 31;
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // Many warps meet on few primitives: every warp of a block walks the same
  // key sequence, and blocks overlap.
  const int base = (blockIdx.x * 7 + j * 13) % kPrimitives;
  active = true;
  key = base;
  if (P == Pattern::kKeys2)
    key = (base + (lane >> 4) * 101) % kPrimitives;
  else if (P == Pattern::kKeys4)
    key = (base + (lane >> 3) * 101) % kPrimitives;
  else if (P == Pattern::kRandom)
    key = hash(tid * kIters + j) % kPrimitives;
  else if (P == Pattern::kHalfActive)
    active = hash(tid * kIters + j) & 1u;
}

template <Variant V, typename S, Pattern P>
__device__ __forceinline__ void
accumulateBody(float *grads, const float *weights, int threshold) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float w = weights[tid & 1023];
  for (int j = 0; j < kIters; ++j) {
    bool active;
    int key;
    lanePlan<P>(j, active, key);
    distwar::Batch<float, kFields> b;
    if (active) {
#pragma unroll
      for (int f = 0; f < kFields; ++f) {
        w = w * 0.999f + 0.001f * f;
        b.set(f, &grads[key * kFields + f], w);
      }
    }
    if constexpr (V == Variant::kPlain) {
      distwar::reducePlain(b);
    } else if constexpr (V == Variant::kFloor) {
#pragma unroll
      for (int f = 0; f < kFields; ++f)
        if (b.addr[f])
          distwar::floorAdd(b.addr[f], b.val[f]);
    } else if constexpr (V == Variant::kSerial) {
      if (active)
        distwar::reduceSerial<S>(b, key, threshold);
    } else if constexpr (V == Variant::kButterfly) {
      distwar::reduceButterfly<S>(b, active, key, threshold);
    } else {
      distwar::reduceButterflyUniform<S>(b, active, key, threshold);
    }
  }
}

template <Variant V, typename S, Pattern P>
__global__ void __launch_bounds__(kBlock)
    accumulate(float *grads, const float *weights, int threshold) {
  accumulateBody<V, S, P>(grads, weights, threshold);
}

// The half-active pattern through the butterfly, with the threshold read from
// the site table: what the autotuner tunes.
__global__ void __launch_bounds__(kBlock)
    tunedAccumulate(float *grads, const float *weights) {
  accumulateBody<Variant::kButterfly, distwar::DefaultStrategy,
                 Pattern::kHalfActive>(
      grads, weights, DISTWAR_SITE_THRESHOLD(distwar_sites_MicroBench_cu, 0));
}

struct Entry {
  std::string name;
  Variant variant;
  void (*kernel)(float *, const float *, int);
  std::vector<float> times;
  std::vector<float> grads;
};

template <Pattern P> std::vector<Entry> entries() {
  std::vector<Entry> e = {
      {"plain",
       Variant::kPlain,
       accumulate<Variant::kPlain, strategy::Leader, P>,
       {},
       {}},
      {"floor",
       Variant::kFloor,
       accumulate<Variant::kFloor, strategy::Leader, P>,
       {},
       {}},
#define DISTWAR_ENTRY(V, S, label)                                             \
  {                                                                            \
    label, Variant::V, accumulate<Variant::V, strategy::S, P>, {}, {}          \
  }
      DISTWAR_ENTRY(kSerial, Leader, "serial/leader"),
      DISTWAR_ENTRY(kSerial, TreeLaneK, "serial/tree-lane-k"),
      DISTWAR_ENTRY(kSerial, ScatterLaneK, "serial/scatter-lane-k"),
      DISTWAR_ENTRY(kSerial, ScatterLeader, "serial/scatter-leader"),
      DISTWAR_ENTRY(kButterfly, Leader, "butterfly/leader"),
      DISTWAR_ENTRY(kButterfly, TreeLaneK, "butterfly/tree-lane-k"),
      DISTWAR_ENTRY(kButterfly, ScatterLaneK, "butterfly/scatter-lane-k"),
      DISTWAR_ENTRY(kButterfly, ScatterLeader, "butterfly/scatter-leader"),
  };
  // The uniform fast path is only valid where active lanes share a key.
  if (P == Pattern::kSameKey || P == Pattern::kHalfActive) {
    e.push_back(DISTWAR_ENTRY(kUniform, Leader, "uniform/leader"));
    e.push_back(DISTWAR_ENTRY(kUniform, TreeLaneK, "uniform/tree-lane-k"));
    e.push_back(
        DISTWAR_ENTRY(kUniform, ScatterLaneK, "uniform/scatter-lane-k"));
    e.push_back(
        DISTWAR_ENTRY(kUniform, ScatterLeader, "uniform/scatter-leader"));
  }
#undef DISTWAR_ENTRY
  return e;
}

void check(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "distwar_microbench: %s: %s\n", what,
                 cudaGetErrorString(err));
    std::exit(1);
  }
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double relativeL2(const std::vector<float> &a, const std::vector<float> &ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += (double(a[i]) - ref[i]) * (double(a[i]) - ref[i]);
    den += double(ref[i]) * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

struct Row {
  std::string pattern, variant;
  double ms, speedup, gap, err;
};

template <Pattern P>
void runPattern(const char *patternName, int reps, int threshold, float *grads,
                const float *weights, std::vector<Row> &rows) {
  std::vector<Entry> e = entries<P>();
  const size_t bytes = sizeof(float) * kPrimitives * kFields;
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  for (int rep = -2; rep < reps; ++rep) { // two warm-up rounds
    for (Entry &x : e) {
      check(cudaMemsetAsync(grads, 0, bytes), "memset");
      check(cudaEventRecord(start), "record");
      x.kernel<<<kBlocks, kBlock>>>(grads, weights, threshold);
      check(cudaEventRecord(stop), "record");
      check(cudaEventSynchronize(stop), x.name.c_str());
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
      if (rep >= 0)
        x.times.push_back(ms);
      if (rep == reps - 1) {
        x.grads.resize(kPrimitives * kFields);
        check(cudaMemcpy(x.grads.data(), grads, bytes, cudaMemcpyDeviceToHost),
              "copy");
      }
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  const double plain = median(e[0].times), floor = median(e[1].times);
  for (Entry &x : e) {
    const double t = median(x.times);
    Row r{patternName,
          x.name,
          t,
          plain / t,
          plain > floor ? (plain - t) / (plain - floor) : 0.0,
          x.variant == Variant::kFloor ? 0.0 : relativeL2(x.grads, e[0].grads)};
    rows.push_back(r);
    std::printf("| %-11s | %-25s | %8.3f | %6.2fx | %6.1f%% | %8.1e |%s\n",
                patternName, x.name.c_str(), r.ms, r.speedup, 100 * r.gap,
                r.err, r.err > 1e-5 ? " WRONG GRADIENTS" : "");
  }
}

struct TunerRun {
  const char *search;
  int best;
  double overheadFraction, retuneFraction, wallOverhead;
};

/// Wall time of `calls` launches through the autotuner (retuning every 2000)
/// against the same launches at the tuned threshold, plus the tuner's own
/// estimate of its overhead.
TunerRun measureTuner(distwar::SearchMode mode, float *grads,
                      const float *weights) {
  const int calls = 6000; // tunings at calls 1, 2001 and 4001
  const size_t bytes = sizeof(float) * kPrimitives * kFields;
  distwar::TunerOptions options;
  options.mode = mode;
  distwar::KernelTuner tuner({"tunedAccumulate#0"}, options);
  auto launch = [&] { tunedAccumulate<<<kBlocks, kBlock>>>(grads, weights); };
  auto timeCalls = [&](const std::function<void()> &call) {
    check(cudaDeviceSynchronize(), "sync");
    const auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < calls; ++c)
      call();
    check(cudaDeviceSynchronize(), "sync");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
        .count();
  };
  const double tuned = timeCalls([&] {
    tuner.run(nullptr, {{grads, bytes}}, launch);
  });
  const distwar::TunerStats s = tuner.stats();
  distwar::setSiteThreshold("tunedAccumulate#0", s.threshold);
  const double fixed = timeCalls(launch);
  return TunerRun{mode == distwar::SearchMode::kExhaustive ? "exhaustive"
                                                           : "coarse-to-fine",
                  s.threshold, s.overheadFraction(), s.retuneOverheadFraction(),
                  (tuned - fixed) / fixed};
}

} // namespace

int main(int argc, char **argv) {
  const char *jsonPath = nullptr;
  int reps = 15, threshold = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threshold") && i + 1 < argc)
      threshold = std::atoi(argv[++i]);
    else
      jsonPath = argv[i];
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "properties");
  float *grads, *weights;
  check(cudaMalloc(&grads, sizeof(float) * kPrimitives * kFields), "malloc");
  check(cudaMalloc(&weights, sizeof(float) * 1024), "malloc");
  std::vector<float> w(1024);
  for (int i = 0; i < 1024; ++i)
    w[i] = 0.5f + (i % 97) / 97.0f;
  check(cudaMemcpy(weights, w.data(), sizeof(float) * 1024,
                   cudaMemcpyHostToDevice),
        "copy");

  std::printf("distwar micro-benchmark on %s: %d blocks x %d threads x %d "
              "iterations, %d float fields, %d primitives, threshold %d, "
              "median of %d\n",
              prop.name, kBlocks, kBlock, kIters, kFields, kPrimitives,
              threshold, reps);
  std::printf("| pattern     | variant                   |    ms    | vs plain "
              "| gap closed | rel. L2 err |\n|---|---|---|---|---|---|\n");
  std::vector<Row> rows;
  runPattern<Pattern::kSameKey>("same-key", reps, threshold, grads, weights,
                                rows);
  runPattern<Pattern::kKeys2>("2-keys", reps, threshold, grads, weights, rows);
  runPattern<Pattern::kKeys4>("4-keys", reps, threshold, grads, weights, rows);
  runPattern<Pattern::kRandom>("random-keys", reps, threshold, grads, weights,
                               rows);
  runPattern<Pattern::kHalfActive>("half-active", reps, threshold, grads,
                                   weights, rows);
  std::vector<TunerRun> tunerRuns;
  for (distwar::SearchMode mode :
       {distwar::SearchMode::kExhaustive, distwar::SearchMode::kCoarseToFine}) {
    tunerRuns.push_back(measureTuner(mode, grads, weights));
    const TunerRun &r = tunerRuns.back();
    std::printf(
        "autotuner (%s first search, local retunes, half-active butterfly, "
        "6000 calls, retune every 2000): best threshold %d, overhead %.2f%% "
        "by its own events (retunes alone %.2f%%), %.2f%% by wall clock vs "
        "the tuned threshold fixed\n",
        r.search, r.best, 100 * r.overheadFraction, 100 * r.retuneFraction,
        100 * r.wallOverhead);
  }
  bool wrong = false;
  for (const Row &r : rows)
    wrong |= r.err > 1e-5;

  if (jsonPath) {
    FILE *f = std::fopen(jsonPath, "w");
    if (!f) {
      std::fprintf(stderr, "distwar_microbench: cannot write %s\n", jsonPath);
      return 1;
    }
    std::fprintf(f,
                 "{\"device\": \"%s\", \"blocks\": %d, \"threads\": %d, "
                 "\"iterations\": %d, \"fields\": %d, \"primitives\": %d, "
                 "\"threshold\": %d, \"reps\": %d, \"rows\": [\n",
                 prop.name, kBlocks, kBlock, kIters, kFields, kPrimitives,
                 threshold, reps);
    for (size_t i = 0; i < rows.size(); ++i)
      std::fprintf(
          f,
          "  {\"pattern\": \"%s\", \"variant\": \"%s\", \"median_ms\": "
          "%.6f, \"speedup\": %.4f, \"gap_closed\": %.4f, "
          "\"rel_l2_err\": %.3e}%s\n",
          rows[i].pattern.c_str(), rows[i].variant.c_str(), rows[i].ms,
          rows[i].speedup, rows[i].gap, rows[i].err,
          i + 1 < rows.size() ? "," : "");
    std::fprintf(f, "], \"autotuner\": [\n");
    for (size_t i = 0; i < tunerRuns.size(); ++i)
      std::fprintf(f,
                   "  {\"search\": \"%s\", \"best\": %d, "
                   "\"overhead_events\": %.5f, \"retune_overhead_events\": "
                   "%.5f, \"overhead_wall\": %.5f}%s\n",
                   tunerRuns[i].search, tunerRuns[i].best,
                   tunerRuns[i].overheadFraction, tunerRuns[i].retuneFraction,
                   tunerRuns[i].wallOverhead,
                   i + 1 < tunerRuns.size() ? "," : "");
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  cudaFree(grads);
  cudaFree(weights);
  return wrong ? 1 : 0;
}
