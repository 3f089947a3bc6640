//===- Worker.cpp - Runs kernels of the selection and checks every output -===//
//
// For each kernel and launch shape: fresh random inputs from (seed, kernel
// index, shape); the plain build twice (the reference and its run-to-run
// spread), the count build once (terms per element, Compare.h), then every
// rewritten variant at site threshold 0 and at one other threshold (17 in
// the first shape, 33 in the second, one of kOtherThresholds after), the
// auto and tiles variants also at the block strategy (34), auto also in the
// serial form, each run from the same start state (atomic outputs random
// and >= 0, plain outputs poisoned). Kernels with nullable outputs also run
// once with them null. The tiles variant (--balance=tiles) also runs in one
// more shape, of more tiles than the device holds blocks (kMultiTileShape).
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include "Compare.h"
#include "Tables.h"

#include "../runtime/GpuCheck.h"

#include <distwar/sites.h>
#include <distwar/threshold_values.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace difftest {

// Set by the stub launcher of a translation unit nvcc rejected.
static std::string notCompiledWhy;

void notCompiled(const char *why) { notCompiledWhy = why; }

namespace {

struct Shape {
  int block, grid;
  int edge;               // threads of the last block outside the image (npix)
  size_t shared = 0;      // dynamic shared memory of the launch (none is used)
  bool tilesOnly = false; // run for the tiles variant only
};

// Partial warps (48, 100 threads a block), edge tiles (npix short of the
// grid), full 256-thread blocks. At most DT_TCAP threads.
const Shape kShapes[] = {{48, 9, 19}, {100, 5, 37}, {256, 5, 0}, {256, 6, 37}};
const Shape kSmallShape = {100, 3, 37};
// Dynamic tiles run on a persistent grid of the blocks the device holds at
// once, at most the tiles: in the shapes above (at most 9 blocks) every
// block runs its one tile and leaves. Here 45 KiB of dynamic shared memory
// (below the 48 KiB a launch may take without opting in, with the 3 KiB of
// static shared memory the generated kernels stay under) holds an SM to 4
// blocks (228 KiB, 1 KiB reserved per block): 528 on 132 SMs, against 768
// tiles of 2 threads, so that blocks run a second tile (the barrier and
// hand-over between tiles, a tile's shared arrays used again by the next, a
// returned lane waiting at the barrier), drawn heaviest first where the
// kernel has a cost (tile-cost). Kernels with the block strategy's tables
// (24 KiB, left alone by the pass) do not fit: their runs are skipped.
const Shape kMultiTileShape = {2, 768, 1, 45u << 10, true};

// Thresholds besides 0 (always reduce): one per kernel and shape; 33 never
// reduces (distwar::kNeverReduce).
const int kOtherThresholds[] = {1, 8, 16, 31, 32, distwar::kNeverReduce};

template <typename T> T *deviceAlloc(size_t bytes) {
  void *p = nullptr;
  gpucheck::require(cudaMalloc(&p, bytes), "cudaMalloc");
  return static_cast<T *>(p);
}

template <typename T>
void upload(void *d, const std::vector<T> &h, const char *what) {
  gpucheck::require(
      cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice),
      what);
}

/// The inputs every kernel may read, regenerated per kernel and shape.
class InputSet {
public:
  InputSet() {
    x_ = deviceAlloc<float>(DT_XS * sizeof(float));
    thr_ = deviceAlloc<float>(DT_TCAP * sizeof(float));
    ids_ = deviceAlloc<int>(DT_IDS * sizeof(int));
    trips_ = deviceAlloc<int>(DT_TCAP * sizeof(int));
  }
  ~InputSet() {
    cudaFree(x_);
    cudaFree(thr_);
    cudaFree(ids_);
    cudaFree(trips_);
  }
  InputSet(const InputSet &) = delete;
  InputSet &operator=(const InputSet &) = delete;

  /// Uniform data, with some warps whose lanes all agree (wholly in or out
  /// at each branch) and runs of equal ids (keys that lanes share).
  Inputs randomize(std::mt19937_64 &rng, int npix) {
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    std::vector<float> x(DT_XS), thr(DT_TCAP);
    std::vector<int> ids(DT_IDS), trips(DT_TCAP);
    for (float &v : x)
      v = unit(rng);
    for (int w = 0; w < DT_TCAP / 32; ++w) {
      const bool uniformWarp = rng() % 3 == 0;
      const float t = unit(rng);
      const int tr = static_cast<int>(rng() % (DT_TRIPS + 1));
      for (int l = 0; l < 32; ++l) {
        thr[w * 32 + l] = uniformWarp ? t : unit(rng);
        trips[w * 32 + l] =
            uniformWarp ? tr : static_cast<int>(rng() % (DT_TRIPS + 1));
      }
    }
    for (int i = 0; i < DT_IDS;) {
      const int run = 1 + static_cast<int>(rng() % 12);
      const int id = static_cast<int>(rng() % DT_KEYS);
      for (int k = 0; k < run && i < DT_IDS; ++k)
        ids[i++] = id;
    }
    upload(x_, x, "upload x");
    upload(thr_, thr, "upload thr");
    upload(ids_, ids, "upload ids");
    upload(trips_, trips, "upload trips");
    Inputs in;
    in.x = x_;
    in.thr = thr_;
    in.ids = ids_;
    in.trips = trips_;
    in.n = DT_TRIPS / 2 + static_cast<int>(rng() % (DT_TRIPS / 2 + 1));
    in.npix = npix;
    return in;
  }

private:
  float *x_ = nullptr, *thr_ = nullptr;
  int *ids_ = nullptr, *trips_ = nullptr;
};

/// Every output buffer of one kernel, on the device, and the host copies
/// of one run.
class Outputs {
public:
  explicit Outputs(const KernelSpec &k) : spec_(k) {
    for (int b = 0; b < k.nbufs; ++b)
      dev_.push_back(deviceAlloc<void>(bytes(b)));
  }
  ~Outputs() {
    for (void *p : dev_)
      cudaFree(p);
  }
  Outputs(const Outputs &) = delete;
  Outputs &operator=(const Outputs &) = delete;

  size_t bytes(int b) const {
    return static_cast<size_t>(spec_.bufs[b].count) *
           elemSize(spec_.bufs[b].elem);
  }

  /// Random start values >= 0 of the atomic buffers (integers below 1000).
  std::vector<Bytes> startState(std::mt19937_64 &rng) const {
    std::vector<Bytes> start;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int b = 0; b < spec_.nbufs; ++b) {
      const BufferSpec &s = spec_.bufs[b];
      Bytes bytesOut(bytes(b));
      for (int i = 0; i < s.count; ++i) {
        unsigned char *p = bytesOut.data() + i * elemSize(s.elem);
        switch (s.elem) {
        case kF32: {
          const float v = static_cast<float>(unit(rng));
          std::memcpy(p, &v, 4);
          break;
        }
        case kF64: {
          const double v = unit(rng);
          std::memcpy(p, &v, 8);
          break;
        }
        case kI32:
        case kU32: {
          const uint32_t v = static_cast<uint32_t>(rng() % 1000);
          std::memcpy(p, &v, 4);
          break;
        }
        case kU64: {
          const uint64_t v = rng() % 1000;
          std::memcpy(p, &v, 8);
          break;
        }
        }
      }
      start.push_back(std::move(bytesOut));
    }
    return start;
  }

  /// Sets every output to its start (the count run: floats from zero),
  /// poisons the plain outputs, launches, waits under the watchdog and
  /// reads every buffer back. With \p mayNotFit, a launch refused for its
  /// resources (the shape's dynamic shared memory on top of a kernel's
  /// static block tables) returns nothing instead of ending the worker.
  std::vector<Bytes> run(const LaunchFn *launchByTu, const Inputs &in,
                         const Shape &shape, bool withOptional,
                         const std::vector<Bytes> &start, bool zeroFloats,
                         const std::string &what, double hangSeconds,
                         bool mayNotFit) {
    for (int b = 0; b < spec_.nbufs; ++b) {
      const BufferSpec &s = spec_.bufs[b];
      const bool floating = s.elem == kF32 || s.elem == kF64;
      if (s.role == kStore)
        gpucheck::require(cudaMemset(dev_[b], 0xff, bytes(b)), "poison");
      else if (zeroFloats && floating)
        gpucheck::require(cudaMemset(dev_[b], 0, bytes(b)), "zero");
      else
        upload(dev_[b], start[b], "reset");
    }
    LaunchArgs a;
    a.in = in;
    a.out = dev_.data();
    a.withOptional = withOptional;
    a.grid = dim3(shape.grid);
    a.block = dim3(shape.block);
    a.shared = shape.shared;
    launchByTu[spec_.tu](spec_.local, a);
    const cudaError_t launched = cudaGetLastError();
    if (mayNotFit && (launched == cudaErrorInvalidValue ||
                      launched == cudaErrorLaunchOutOfResources))
      return {};
    gpucheck::require(launched, what.c_str());
    gpucheck::waitOrDie(what, hangSeconds);
    std::vector<Bytes> host;
    for (int b = 0; b < spec_.nbufs; ++b) {
      Bytes h(bytes(b));
      gpucheck::require(
          cudaMemcpy(h.data(), dev_[b], h.size(), cudaMemcpyDeviceToHost),
          what.c_str());
      host.push_back(std::move(h));
    }
    return host;
  }

private:
  const KernelSpec &spec_;
  std::vector<void *> dev_;
};

bool isTilesVariant(int v) {
  return std::strcmp(kVariants[v].name, "tiles") == 0;
}

std::string runName(const KernelSpec &k, const char *variant,
                    const Shape &shape, const Inputs &in, int threshold,
                    bool withOptional) {
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "%d %s variant=%s block=%d grid=%d npix=%d threshold=%d "
                "optional=%d",
                k.index, k.name, variant, shape.block, shape.grid, in.npix,
                threshold, withOptional ? 1 : 0);
  return buf;
}

/// Checks one kernel; returns whether every variant matched.
bool checkKernel(const KernelSpec &k, const Options &o,
                 const std::vector<int> &variants, InputSet &inputs,
                 int &inertShapes) {
  std::mt19937_64 rng((static_cast<uint64_t>(o.seed) << 32) ^
                      static_cast<uint64_t>(k.index) * 0x9e3779b97f4a7c15ull);
  Outputs outputs(k);
  bool ok = true;
  std::set<int> uncompiled; // variants whose translation unit nvcc rejected
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  if (o.small)
    shapes = {kSmallShape};
  else
    shapes.push_back(kMultiTileShape);
  for (size_t si = 0; si < shapes.size(); ++si) {
    const Shape &shape = shapes[si];
    std::vector<int> shapeVariants;
    for (int v : variants)
      if (!shape.tilesOnly || isTilesVariant(v))
        shapeVariants.push_back(v);
    // A kernel whose block needs more threads, or a tiles-only shape
    // without the tiles variant, skips the shape (the last one: the others
    // draw the same inputs either way).
    if (shape.block < k.minBlock || shapeVariants.empty())
      continue;
    const Inputs in =
        inputs.randomize(rng, shape.block * shape.grid - shape.edge);
    const std::vector<Bytes> start = outputs.startState(rng);
    // Every variant of every kernel at 17 (half a warp) and 33 (never
    // reduce) besides 0; further shapes at one of the others.
    const int other =
        si < 2 ? (si == 0 ? 17 : distwar::kNeverReduce)
               : kOtherThresholds[rng() % (sizeof kOtherThresholds /
                                           sizeof(int))];
    // Nullable outputs present in every shape, absent in the first.
    std::vector<bool> optionalRuns = {true};
    if (k.hasOptional && si == 0)
      optionalRuns.push_back(false);
    for (bool withOpt : optionalRuns) {
      auto run = [&](int variant, int threshold, bool zeroFloats) {
        const std::string what =
            runName(k, kVariants[variant].name, shape, in, threshold, withOpt);
        return outputs.run(kVariants[variant].launchByTu, in, shape, withOpt,
                           start, zeroFloats, what, o.hangSeconds,
                           shape.shared != 0 &&
                               variant >= kFirstRewrittenVariant);
      };
      distwar::setAllSiteThresholds(0);
      const std::vector<Bytes> ref = run(kPlainVariant, 0, false);
      const std::vector<Bytes> ref2 = run(kPlainVariant, 0, false);
      const std::vector<Bytes> terms = run(kCountVariant, 0, true);
      bool changed = false;
      for (int b = 0; b < k.nbufs; ++b) {
        changed = changed || (k.bufs[b].role == kAtomic && ref[b] != start[b]);
        size_t first = 0;
        const size_t bad = unstableElements(k.bufs[b], ref[b], ref2[b], &first);
        if (bad) {
          ok = false;
          std::printf("UNSTABLE %d %s buffer=%s[%zu] elements=%zu (the plain "
                      "kernel differs from itself: a generator bug)\n",
                      k.index, k.name, k.bufs[b].name, first, bad);
          std::fflush(stdout);
        }
      }
      if (!changed)
        ++inertShapes;
      for (int v : shapeVariants) {
        std::vector<int> thresholds = {0};
        if (!o.small)
          thresholds.push_back(other);
        // Only auto output (and tiles, auto's rewrite balanced) has block
        // tables (serial and butterfly read 34 as plain atomics) and
        // butterflies with the serial form too, which the form bit selects
        // (every other site ignores it). Tiles runs at 34 too (the tables
        // in a tile loop, where the pass balances such a kernel), not in
        // the serial form: its reductions are auto's, checked there.
        if (isTilesVariant(v))
          thresholds.push_back(distwar::kBlockStrategy);
        if (std::strcmp(kVariants[v].name, "auto") == 0) {
          thresholds.push_back(distwar::kBlockStrategy);
          const size_t warp = thresholds.size() - 1;
          for (size_t i = 0; i < warp; ++i)
            if (thresholds[i] < distwar::kNeverReduce)
              thresholds.push_back(distwar::kSerialForm | thresholds[i]);
        }
        for (int t : thresholds) {
          distwar::setAllSiteThresholds(t);
          if (uncompiled.count(v))
            continue;
          notCompiledWhy.clear();
          const std::vector<Bytes> got = run(v, t, false);
          if (got.empty() && k.nbufs > 0) {
            // Not a mismatch: this shape's shared memory does not fit the
            // variant's kernel (a kernel the tiles pass left alone, with the
            // block strategy's tables); the other shapes checked it.
            std::printf(
                "SKIP %s: the launch does not fit %zu bytes of dynamic shared "
                "memory\n",
                runName(k, kVariants[v].name, shape, in, t, withOpt).c_str(),
                shape.shared);
            std::fflush(stdout);
            break;
          }
          if (!notCompiledWhy.empty()) {
            ok = false;
            uncompiled.insert(v);
            std::printf(
                "FAIL %s not compiled: %s\n",
                runName(k, kVariants[v].name, shape, in, t, withOpt).c_str(),
                notCompiledWhy.c_str());
            std::fflush(stdout);
            continue;
          }
          for (int b = 0; b < k.nbufs; ++b) {
            const Mismatch m =
                compareBuffer(k.bufs[b], got[b], ref[b], ref2[b], terms[b]);
            if (!m.count)
              continue;
            ok = false;
            std::printf(
                "FAIL %s buffer=%s[%zu] got=%s expected=%s tol=%s "
                "mismatches=%zu\n",
                runName(k, kVariants[v].name, shape, in, t, withOpt).c_str(),
                k.bufs[b].name, m.first, m.got.c_str(), m.expected.c_str(),
                m.tolerance.c_str(), m.count);
            std::fflush(stdout);
          }
        }
      }
    }
  }
  distwar::setAllSiteThresholds(0);
  return ok;
}

} // namespace

void printTileMode(const Options &o) {
  bool tiles = false;
  for (int v : selectVariants(o))
    tiles = tiles || isTilesVariant(v);
  if (!tiles)
    return;
  const distwar::Environment &env =
      distwar::detail::SiteRegistry::instance().environment();
  if (!env.autotune)
    std::printf("tiles: every launch with dynamic tiles (DISTWAR_AUTOTUNE=0)"
                "%s\n",
                o.small ? ""
                        : "; the shape block=2 grid=768 runs more tiles "
                          "than the device holds blocks");
  else
    std::printf("tiles: each launch in the mode the tuner picks "
                "(DISTWAR_AUTOTUNE=1): a kernel's first launch with dynamic "
                "tiles, its second with one tile per block, then by timing\n");
  std::fflush(stdout);
}

int runWorker(const Options &o, int from, int to) {
  const std::vector<int> selection = selectKernels(o);
  const std::vector<int> variants = selectVariants(o);
  InputSet inputs;
  int failed = 0;
  for (int pos = from; pos < to && pos < static_cast<int>(selection.size());
       ++pos) {
    const KernelSpec &k = difftest_meta::kKernels[selection[pos]];
    std::printf("BEGIN %d\n", k.index);
    std::fflush(stdout);
    int inert = 0;
    const bool ok = checkKernel(k, o, variants, inputs, inert);
    failed += ok ? 0 : 1;
    std::printf("DONE %d %s %d\n", k.index, ok ? "pass" : "fail", inert);
    std::fflush(stdout);
  }
  return failed;
}

} // namespace difftest
