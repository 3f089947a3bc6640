// The benchmark of the load-balanced 3DGS render (kernels/gaussians_balance.h,
// docs/BALANCING.md): per scene preset, every forward and every backward
// kernel against the original, interleaved in one process on one device,
// and each kernel's registers and occupancy. Prints tables and writes JSON
// (bench/RESULTS.md, "Load balance across tiles", says how it is run).
//
//   distwar_balance_bench [--out results.json] [--reps 9] [--cases a,b,...]
//                         [--seed 1] [--no-switch]
//
// Method: the scene is binned and its tiles ordered once; one warm-up round,
// then `reps` rounds, each launching every kernel once (the gradients zeroed
// before each backward, untimed), CUDA-event timing, the median reported. A
// kernel is first launched once untimed when the previous launch was another
// kernel's. Speedup = t_original / t_kernel, within one process and device.
// "tuned": every kernel as a variant of one launch statement
// (distwar/variant_launch.h), launched kWarmLaunches times (its searches)
// before the rounds, then timed in them like the others. Last, the switch:
// one tuned launch statement fed the severe scene, then the medium one.
// Where they are built, the tool's output runs too: `tool: tiles`, the
// forward rewritten by distwar-rewrite --balance=tiles; `tool: auto`, the
// backward batched, and `tool: auto+tiles`, batched and balanced. Each is
// launched kWarmLaunches times first (its threshold search and its choice
// of tile mode run on those launches), and its choice of mode is reported.
#include "common/BenchDriver.h"
#include "gaussians_balance.h"
#include "headroom.h"
#include "kernel_resources.h"
#include "tiles.h"

#include <distwar/tiles.cuh>
#include <distwar/variant_launch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#if DWK_BENCH_TOOL_TILES
DWK_DECLARE_GAUSSIAN_FORWARD(dwk_tiles)
DWK_DECLARE_GAUSSIAN_BACKWARD(dwk_tiles)
DWK_DECLARE_GAUSSIAN_BACKWARD(dwk_auto)
#endif

using namespace dwk;
using dwk_bench::jsonString;
using dwk_bench::median;
using dwk_bench::Timer;

namespace {

const std::vector<std::string> kDefaultCases = {
    "small", "medium", "large", "medium-uniform", "medium-clustered",
    "early", "late", "severe"};

// One timed configuration: `prepare` runs untimed before each launch.
struct Run {
  std::string name;
  std::function<void()> prepare, launch;
  std::vector<float> ms;
};

// Every run once per round, rounds interleaved; round 0 warms up. A run
// whose launch follows another run's is launched once untimed first (the
// first launch of a kernel after another's is microseconds slower).
void timeInterleaved(std::vector<Run> &runs, int reps, Timer &timer) {
  for (int round = 0; round <= reps; ++round) {
    for (Run &r : runs) {
      r.prepare();
      r.launch();
      r.prepare();
      const float ms = timer.time(r.launch);
      if (round > 0)
        r.ms.push_back(ms);
    }
  }
}

// How unevenly the tiles' lists are filled.
struct ListStats {
  double mean = 0;
  uint32_t max = 0;
};

ListStats listStats(const TileBins &bins) {
  const std::vector<uint2> ranges = bins.ranges.download();
  ListStats s;
  for (const uint2 &r : ranges) {
    s.mean += r.y - r.x;
    s.max = std::max(s.max, r.y - r.x);
  }
  s.mean /= std::max<size_t>(1, ranges.size());
  return s;
}

// {"kernel": {"registers": ..., ...}, ...} of one launcher per kernel.
std::string resourcesJson(
    const std::vector<std::pair<std::string, dwk_bench::LaunchResources>>
        &all) {
  std::ostringstream json;
  json << "{";
  for (size_t i = 0; i < all.size(); ++i) {
    const dwk_bench::LaunchResources &r = all[i].second;
    json << (i ? ", " : "") << jsonString(all[i].first) << ": ";
    if (r.kernels.empty()) {
      json << "{\"error\": " << jsonString(r.error) << "}";
      continue;
    }
    const dwk_bench::KernelResources &k = r.kernels.back();
    json << "{\"registers\": " << k.registers
         << ", \"local_bytes\": " << k.localBytes
         << ", \"shared_bytes\": " << k.sharedBytes
         << ", \"threads\": " << k.threads
         << ", \"blocks_per_sm\": " << k.blocksPerSM
         << ", \"occupancy\": " << k.occupancy << "}";
  }
  return json.str() + "}";
}

void printResources(
    const std::vector<std::pair<std::string, dwk_bench::LaunchResources>>
        &all) {
  for (const auto &entry : all) {
    if (entry.second.kernels.empty()) {
      std::printf("    %-26s error: %s\n", entry.first.c_str(),
                  entry.second.error.c_str());
      continue;
    }
    const dwk_bench::KernelResources &k = entry.second.kernels.back();
    std::printf("    %-26s %4d regs %5zu local %6zu smem %4d threads %3d "
                "blocks/SM %5.1f%% occupancy\n",
                entry.first.c_str(), k.registers, k.localBytes, k.sharedBytes,
                k.threads, k.blocksPerSM, 100 * k.occupancy);
  }
}

// The hand-written dynamic tiles drawn in launch order instead of heaviest
// first: the hardware's own order, so what the order buys shows.
const char *const kLaunchOrder = "dynamic-tiles, launch order";

// Launches of a tuned kernel before its timed rounds: its first search and
// a re-check or two, as the first iterations of a training run.
constexpr int kWarmLaunches = 300;

std::string variantName(bool forward, int k) {
  return forward ? name(allForwardKernels().at(k))
                 : name(allBackwardKernels().at(k));
}

std::vector<std::string> variantNames(bool forward) {
  std::vector<std::string> names;
  const size_t n =
      forward ? allForwardKernels().size() : allBackwardKernels().size();
  for (size_t k = 0; k < n; ++k)
    names.push_back(variantName(forward, int(k)));
  return names;
}

// The forward as a program would launch it with the choice on: one launch
// statement, every kernel a variant, the original the default.
struct TunedForward {
  TunedForward(GaussianDeviceScene &d, TilePool &pool)
      : launcher("render forward", variantNames(true)),
        run([this, &d, &pool] {
          launcher.run(0, [&](int k) {
            renderForward(d, allForwardKernels().at(k), pool, 0);
          });
        }) {}
  distwar::VariantLauncher launcher;
  std::function<void()> run;
};

struct TunedBackward {
  TunedBackward(const GaussianBackwardArgs &args, TilePool &pool)
      : launcher("render backward", variantNames(false)),
        run([this, &args, &pool] {
          launcher.run(0, [&](int k) {
            renderBackward(args, allBackwardKernels().at(k), pool, 0);
          });
        }) {}
  distwar::VariantLauncher launcher;
  std::function<void()> run;
};

struct Warmup {
  double meanMs = 0;
};

// kWarmLaunches launches of `launch`, `prepare` untimed before each; the
// mean time of a launch.
Warmup warm(const std::function<void()> &launch,
            const std::function<void()> &prepare, Timer &timer) {
  double total = 0;
  for (int i = 0; i < kWarmLaunches; ++i) {
    prepare();
    total += timer.time(launch);
  }
  return {total / kWarmLaunches};
}

// The tool's forward (--balance=tiles), warmed like `tuned`.
void addToolForward(std::vector<Run> &runs, GaussianDeviceScene &d,
                    Timer &timer) {
#if DWK_BENCH_TOOL_TILES
  auto launch = [&d] { dwk_tiles::gaussianForward(d, 0); };
  warm(launch, [] {}, timer);
  runs.push_back({"tool: tiles", [] {}, launch});
#else
  (void)runs, (void)d, (void)timer;
#endif
}

// The tool's backward, batched, then batched and balanced, warmed.
void addToolBackward(std::vector<Run> &runs, GaussianDeviceScene &d,
                     const GaussianBackwardArgs &args, Timer &timer) {
#if DWK_BENCH_TOOL_TILES
  auto zero = [&d] { d.zeroGradients(); };
  auto batched = [&args] { dwk_auto::gaussianBackward(args, 0); };
  auto balanced = [&args] { dwk_tiles::gaussianBackward(args, 0); };
  warm(batched, zero, timer);
  warm(balanced, zero, timer);
  runs.push_back({"tool: auto", zero, batched});
  runs.push_back({"tool: auto+tiles", zero, balanced});
#else
  (void)runs, (void)d, (void)args, (void)timer;
#endif
}

// The tile modes chosen so far (distwar/tiles.cuh), as JSON objects joined
// by ", "; the choices live for the whole process, so a later preset's
// lines hold the launches of the earlier ones too.
std::string tileModeJson() {
  std::string out;
  for (const std::string &line : distwar::tileModeReport())
    out += (out.empty() ? "" : ", ") + line;
  return out;
}

// The work model of headroom.h on the original forward's outputs in \p d,
// the device running \p blocksPerSM blocks on each of its SMs.
dwk_bench::Headroom headroomOf(const GaussianDeviceScene &d, int blocksPerSM) {
  int device = 0, sms = 0;
  DWK_CHECK(cudaGetDevice(&device));
  DWK_CHECK(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  std::vector<uint32_t> lengths;
  for (const uint2 &r : d.bins.ranges.download())
    lengths.push_back(r.y - r.x);
  return dwk_bench::forwardHeadroom(lengths, d.final_T.download(),
                                    d.n_contrib.download(), d.W, d.H, BLOCK_X,
                                    BLOCK_Y, sms * std::max(1, blocksPerSM));
}

// One preset: the forward kernels, then the backward kernels (on the
// original forward's outputs, without the depth loss, as distwar_bench).
std::string benchCase(const std::string &preset, uint64_t seed, int reps,
                      Timer &timer) {
  const GaussianPreset *p = findGaussianPreset(preset);
  if (!p) {
    std::fprintf(stderr, "distwar_balance_bench: unknown preset '%s'\n",
                 preset.c_str());
    std::exit(2);
  }
  GaussianDeviceScene d(makeGaussianScene(*p, seed));
  TilePool pool, launchOrder;
  d.bin();
  pool.orderHeavyFirst(d.bins, d.W, d.H, 0);
  launchOrder.orderAsLaunched(d.W, d.H, 0);
  d.forward();
  uint32_t heavy = 0;
  DWK_CHECK(cudaMemcpy(&heavy, pool.heavyTiles(), sizeof heavy,
                       cudaMemcpyDeviceToHost));
  const ListStats lists = listStats(d.bins);

  std::vector<Run> forward, backward;
  for (ForwardKernel k : allForwardKernels())
    forward.push_back({name(k), [] {}, [&d, &pool, k] {
                         renderForward(d, k, pool, 0);
                       }});
  forward.push_back({kLaunchOrder, [] {}, [&d, &launchOrder] {
                       renderForward(d, ForwardKernel::kDynamicTiles,
                                     launchOrder, 0);
                     }});
  TunedForward tunedForward(d, pool);
  const Warmup fwdWarmup = warm(tunedForward.run, [] {}, timer);
  forward.push_back({"tuned", [] {}, tunedForward.run});
  addToolForward(forward, d, timer);
  timeInterleaved(forward, reps, timer);
  d.forward();
  const GaussianBackwardArgs args = d.backwardArgs(false);
  for (BackwardKernel k : allBackwardKernels())
    backward.push_back({name(k), [&d] { d.zeroGradients(); },
                        [&args, &pool, k] {
                          renderBackward(args, k, pool, 0);
                        }});
  backward.push_back({kLaunchOrder, [&d] { d.zeroGradients(); },
                      [&args, &launchOrder] {
                        renderBackward(args, BackwardKernel::kDynamicTiles,
                                       launchOrder, 0);
                      }});
  TunedBackward tunedBackward(args, pool);
  const Warmup bwdWarmup =
      warm(tunedBackward.run, [&d] { d.zeroGradients(); }, timer);
  backward.push_back({"tuned", [&d] { d.zeroGradients(); }, tunedBackward.run});
  addToolBackward(backward, d, args, timer);
  timeInterleaved(backward, reps, timer);

  std::vector<std::pair<std::string, dwk_bench::LaunchResources>> resources;
  for (ForwardKernel k : allForwardKernels())
    resources.push_back(
        {std::string("forward ") + name(k),
         dwk_bench::queryLaunchResources(
             [&](cudaStream_t s) { renderForward(d, k, pool, s); })});
  for (BackwardKernel k : allBackwardKernels())
    resources.push_back(
        {std::string("backward ") + name(k),
         dwk_bench::queryLaunchResources(
             [&](cudaStream_t s) { renderBackward(args, k, pool, s); })});

  std::printf("%s: %d Gaussians, %dx%d, %d pairs; list per tile: mean %.0f, "
              "max %u (%.0fx), %u tiles over %gx the mean (split)\n",
              preset.c_str(), d.P, d.W, d.H, d.bins.num_rendered, lists.mean,
              lists.max, lists.max / std::max(1.0, lists.mean), heavy,
              TilePool::kHeavyFactor);
  std::ostringstream json;
  json << "{\"preset\": " << jsonString(preset) << ", \"gaussians\": " << d.P
       << ", \"width\": " << d.W << ", \"height\": " << d.H
       << ", \"pairs\": " << d.bins.num_rendered
       << ", \"list_mean\": " << lists.mean << ", \"list_max\": " << lists.max
       << ", \"heavy_tiles\": " << heavy;
  for (const std::vector<Run> *runs : {&forward, &backward}) {
    const bool fwd = runs == &forward;
    const double base = median((*runs)[0].ms);
    std::printf("  %-8s", fwd ? "forward" : "backward");
    json << ", \"" << (fwd ? "forward" : "backward") << "\": {";
    for (size_t i = 0; i < runs->size(); ++i) {
      const double ms = median((*runs)[i].ms);
      std::printf("  %s %.3f ms (%.2fx)", (*runs)[i].name.c_str(), ms,
                  base / ms);
      json << (i ? ", " : "") << jsonString((*runs)[i].name)
           << ": {\"ms\": " << ms << ", \"speedup\": " << base / ms << "}";
    }
    const distwar::VariantLauncher &launcher =
        fwd ? tunedForward.launcher : tunedBackward.launcher;
    const Warmup &w = fwd ? fwdWarmup : bwdWarmup;
    const std::string chosen = variantName(fwd, launcher.variant());
    std::printf("\n  %-8s  tuned: %s; its first %d launches %.3f ms each "
                "(%.2fx the original)\n",
                "", chosen.c_str(), kWarmLaunches, w.meanMs, w.meanMs / base);
    json << ", \"tuned_variant\": " << jsonString(chosen)
         << ", \"tuned_first_launches_mean_ms\": " << w.meanMs
         << ", \"tuned_report\": " << launcher.report() << "}";
  }
  printResources(resources);
  const dwk_bench::LaunchResources &original = resources.front().second;
  const dwk_bench::Headroom room = headroomOf(
      d, original.kernels.empty() ? 1 : original.kernels.front().blocksPerSM);
  std::printf("  headroom (work model, forward): dynamic tiles heaviest first "
              "%.2fx; bound for whole tiles %.2fx, for every lane busy "
              "%.2fx\n",
              room.inOrder / room.heavyFirst, room.inOrder / room.wholeTiles,
              room.inOrder / room.everyLane);
  json << ", \"headroom\": {\"in_order\": " << room.inOrder
       << ", \"heavy_first\": " << room.heavyFirst
       << ", \"whole_tiles\": " << room.wholeTiles
       << ", \"every_lane\": " << room.everyLane << "}";
  for (const std::string &line : distwar::tileModeReport())
    std::printf("  tile mode: %s\n", line.c_str());
  json << ", \"resources\": " << resourcesJson(resources)
       << ", \"tile_modes\": [" << tileModeJson() << "]}";
  return json.str();
}

// The data changing under one tuned forward launch statement, as training
// moves from an imbalanced scene to a balanced one: `first` for
// kSwitchLaunches launches, then `second` for 3 times as many. The variant
// in force after every kSwitchStride launches, as JSON.
constexpr int kSwitchLaunches = 400, kSwitchStride = 50;

std::string benchSwitch(const std::string &first, const std::string &second,
                        uint64_t seed) {
  GaussianDeviceScene a(makeGaussianScene(*findGaussianPreset(first), seed));
  GaussianDeviceScene b(makeGaussianScene(*findGaussianPreset(second), seed));
  TilePool poolA, poolB;
  a.bin();
  poolA.orderHeavyFirst(a.bins, a.W, a.H, 0);
  b.bin();
  poolB.orderHeavyFirst(b.bins, b.W, b.H, 0);
  distwar::VariantLauncher launcher("render forward, scene changing",
                                    variantNames(true));
  std::ostringstream json;
  json << "{\"first\": " << jsonString(first)
       << ", \"second\": " << jsonString(second)
       << ", \"stride\": " << kSwitchStride << ", \"variants\": [";
  std::printf("switch: %s for %d launches, then %s; the variant in force "
              "every %d launches:\n ",
              first.c_str(), kSwitchLaunches, second.c_str(), kSwitchStride);
  for (int i = 1; i <= 4 * kSwitchLaunches; ++i) {
    const bool onFirst = i <= kSwitchLaunches;
    GaussianDeviceScene &d = onFirst ? a : b;
    TilePool &pool = onFirst ? poolA : poolB;
    launcher.run(0, [&](int k) {
      renderForward(d, allForwardKernels().at(k), pool, 0);
    });
    // A training iteration waits for its results (the loss, the
    // densification statistics): the launch's time is back at the next.
    DWK_CHECK(cudaDeviceSynchronize());
    if (i % kSwitchStride)
      continue;
    const std::string v = variantName(true, launcher.variant());
    std::printf(" %s", v.c_str());
    json << (i == kSwitchStride ? "" : ", ") << jsonString(v);
  }
  std::printf("\n  %s\n", launcher.report().c_str());
  json << "], \"report\": " << launcher.report() << "}";
  return json.str();
}

} // namespace

int main(int argc, char **argv) {
  dwk_bench::Options options;
  options.cases = kDefaultCases;
  options.reps = 9;
  bool with_switch = true;
  const auto noSwitch = [&](const char *arg) {
    if (std::strcmp(arg, "--no-switch") != 0)
      return false;
    with_switch = false;
    return true;
  };
  if (!dwk_bench::parseOptions(argc, argv, "distwar_balance_bench", options,
                               noSwitch))
    return 2;
  if (!dwk_bench::haveDevice())
    return 0;
  const dwk_bench::RunInfo info = dwk_bench::runInfo();
  const char *interval = std::getenv("DISTWAR_AUTOTUNE_INTERVAL");
  std::printf("device: %s, %d SMs; %s; median of %d launches after 1 "
              "warm-up round; DISTWAR_AUTOTUNE_INTERVAL=%s\n",
              info.prop.name, info.prop.multiProcessorCount, info.date.c_str(),
              options.reps, interval ? interval : "(default)");
  Timer timer;
  std::ostringstream json;
  json << "{\"device\": " << jsonString(info.prop.name)
       << ", \"date\": " << jsonString(info.date)
       << ", \"reps\": " << options.reps << ", \"seed\": " << options.seed
       << ", \"cases\": [";
  for (size_t i = 0; i < options.cases.size(); ++i)
    json << (i ? ",\n  " : "\n  ")
         << benchCase(options.cases[i], options.seed, options.reps, timer);
  json << "\n]";
  if (with_switch)
    json << ",\n\"switch\": " << benchSwitch("severe", "medium", options.seed);
  json << "}\n";
  if (!dwk_bench::writeResults(options.outPath, json.str(),
                               "distwar_balance_bench"))
    return 1;
  return 0;
}
