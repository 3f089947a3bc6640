// The benchmark of the reference kernels: for each workload and scene, times
// plain atomics, every rewritten variant at every site value (0..34), each
// rewritten variant through the autotuner (distwar::KernelTuner), the
// hand-written butterfly (Gaussians only; for comparison, not tool output) at
// every threshold, the hand-written variants without a threshold (block
// tables, coalescing; spheres and textures), and the no-atomic floor,
// interleaved in one process;
// counts active lanes per warp at the atomics; times forward + backward per
// iteration. Last, after every timed run, reads each variant's kernels from a
// capture of one launch (kernel_resources.h: registers, local memory, shared
// memory, threads and resident blocks per SM, occupancy). Prints tables and
// writes JSON (see RESULTS.md for the method).
//
//   distwar_bench [--out results.json] [--reps 7] [--cases a,b,...] [--list]
#include "common/BenchDriver.h"
#include "count_registry.h"
#include "kernel_resources.h"
#include "kernel_variants.h"
#include "tiles.h"

#if defined(DWK_HAVE_RUNTIME)
#include <distwar/autotune.h>
#include <distwar/sites.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace dwk;
using dwk_bench::jsonString;
using dwk_bench::Timer;

namespace {

// Site values swept: 0..32 lanes, 33 never reduce, 34 the block strategy
// (distwar::kBlockStrategy; plain atomics at sites without a block table);
// for variants whose butterflies have the serial form too, 0..32 in that
// form (distwar::kSerialForm | t) after them.
constexpr int kMaxThreshold = 34;
constexpr int kSerialForm = 64;
constexpr int kSerialThresholds = 33; // serial:0..32
// Below this floor speedup the plain-to-floor gap is noise: no share of it.
constexpr double kMinFloorSpeedup = 1.02;

// A buffer the backward writes (the autotuner saves and restores them).
struct Output {
  void *ptr;
  size_t bytes;
};
template <typename T> Output output(DeviceBuffer<T> &b) {
  return {b.data(), b.size() * sizeof(T)};
}

// One scene of one workload, resident on the GPU.
struct Case {
  std::string workload, preset, details;
  std::function<void()> zero; // gradients
  // One launch of the variant's backward on the stream.
  std::function<void(const BackwardVariant &, cudaStream_t)> backward;
  std::function<void()> forward;                    // incl. binning
  std::function<bool(const BackwardVariant &)> has; // variant exists
  std::vector<Output> outputs;                      // backward writes
};

std::unique_ptr<Case> makeCase(const std::string &name, uint64_t seed) {
  const size_t slash = name.find('/');
  const std::string workload = name.substr(0, slash);
  const std::string preset = name.substr(slash + 1);
  auto c = std::make_unique<Case>();
  c->workload = workload;
  c->preset = preset;
  std::ostringstream details;
  if (workload == "gaussians" && findGaussianPreset(preset)) {
    auto d = std::make_shared<GaussianDeviceScene>(
        makeGaussianScene(*findGaussianPreset(preset), seed));
    d->bin();
    d->forward();
    const dim3 grid = tileGrid(d->W, d->H);
    details << d->P << " Gaussians, " << d->W << "x" << d->H << ", "
            << double(d->bins.num_rendered) / (grid.x * grid.y) << " per tile";
    c->zero = [d] { d->zeroGradients(); };
    c->backward = [d](const BackwardVariant &v, cudaStream_t s) {
      v.gaussian(d->backwardArgs(false), s);
    };
    c->has = [](const BackwardVariant &v) { return v.gaussian != nullptr; };
    c->outputs = {output(d->dL_dmean2D), output(d->dL_dconic2D),
                  output(d->dL_dopacity), output(d->dL_dcolors)};
    c->forward = [d] {
      d->bin();
      d->forward();
    };
  } else if (workload == "spheres" && findSpherePreset(preset)) {
    auto d = std::make_shared<SphereDeviceScene>(
        makeSphereScene(*findSpherePreset(preset), seed));
    d->bin();
    d->forward();
    details << d->P << " spheres, " << d->W << "x" << d->H
            << (d->cam.orthogonal ? ", orthogonal" : ", perspective");
    c->zero = [d] { d->zeroGradients(); };
    c->backward = [d](const BackwardVariant &v, cudaStream_t s) {
      v.sphere(d->backwardArgs(), s);
    };
    c->has = [](const BackwardVariant &v) { return v.sphere != nullptr; };
    c->outputs = {output(d->grad_pos),     output(d->grad_rad),
                  output(d->grad_opy),     output(d->grad_col),
                  output(d->grad_cam_buf), output(d->n_hits)};
    c->forward = [d] {
      d->bin();
      d->forward();
    };
  } else if ((workload == "diffuse" || workload == "specular") &&
             findCubemapPreset(preset)) {
    auto d = std::make_shared<CubemapDeviceScene>(
        makeCubemapScene(*findCubemapPreset(preset), seed));
    d->computeBounds();
    details << "6x" << d->N << "x" << d->N;
    if (workload == "specular")
      details << ", roughness " << d->roughness << ", cos cutoff "
              << d->costheta_cutoff;
    const bool diffuse = workload == "diffuse";
    c->zero = [d] { d->zeroGradients(); };
    c->backward = [d, diffuse](const BackwardVariant &v, cudaStream_t s) {
      if (diffuse)
        v.diffuse(d->diffuseParams(), s);
      else
        v.specular(d->specularParams(), s);
    };
    c->has = [diffuse](const BackwardVariant &v) {
      return (diffuse ? v.diffuse != nullptr : v.specular != nullptr);
    };
    c->outputs = {output(d->gradCubemap)};
    c->forward = [d, diffuse] {
      if (diffuse)
        d->diffuseForward();
      else
        d->specularForward();
    };
  } else if (workload == "texture" && findTexturePreset(preset)) {
    auto d = std::make_shared<TextureDeviceScene>(
        makeTextureScene(*findTexturePreset(preset), seed));
    details << "texture " << d->texWidth << "x" << d->texHeight << ", image "
            << d->imgWidth << "x" << d->imgHeight;
    c->zero = [d] { d->zeroGradients(); };
    c->backward = [d](const BackwardVariant &v, cudaStream_t s) {
      v.texture(d->params(), s);
    };
    c->has = [](const BackwardVariant &v) { return v.texture != nullptr; };
    c->outputs = {output(d->gradTex), output(d->gradUV)};
    c->forward = [d] { d->forward(); };
  } else {
    return nullptr;
  }
  DWK_CHECK(cudaDeviceSynchronize());
  c->details = details.str();
  return c;
}

const std::vector<std::string> kDefaultCases = {
    "gaussians/small",      "gaussians/medium",
    "gaussians/large",      "gaussians/medium-clustered",
    "gaussians/early",      "gaussians/late",
    "spheres/small",        "spheres/large",
    "spheres/large-ortho",  "diffuse/diffuse-16",
    "diffuse/diffuse-32",   "specular/specular-32",
    "specular/specular-64", "texture/magnify",
    "texture/minify"};

// Rewritten with --form-choice=run-time: its butterflies that the serial
// form could reduce differently have both.
bool hasForms(const BackwardVariant &v) {
  return v.rewritten() && v.is("forms");
}

// The site values swept for a tunable variant, in order.
std::vector<int> sweptValues(const BackwardVariant &v) {
  std::vector<int> values;
  for (int t = 0; t <= kMaxThreshold; ++t)
    values.push_back(t);
  if (hasForms(v))
    for (int t = 0; t < kSerialThresholds; ++t)
      values.push_back(kSerialForm | t);
  return values;
}

// "12", or "s12" for the serial form.
std::string valueLabel(int value) {
  return (value & kSerialForm ? "s" : "") + std::to_string(value & ~kSerialForm);
}

// Hand-written variants have a threshold of their own; the rewritten ones
// read the runtime's site tables.
void setThreshold(const BackwardVariant &v, int t) {
  if (v.setOwnThreshold) {
    v.setOwnThreshold(t);
    return;
  }
#if defined(DWK_HAVE_RUNTIME)
  distwar::setAllSiteThresholds(t);
#else
  (void)t;
#endif
}

#if defined(DWK_HAVE_RUNTIME)
using Tuner = distwar::KernelTuner;
#else
struct Tuner {};
#endif

// A timed configuration: a variant at one threshold (-1: not tunable), or
// through an autotuner.
struct Run {
  const BackwardVariant *variant;
  int threshold;
  std::vector<float> ms;
  std::shared_ptr<Tuner> tuner = nullptr;
  double median() const { return dwk_bench::median(ms); }
};

// Every run once per round, rounds interleaved; the first round warms up.
// A run whose variant is not the previous run's is launched once untimed
// before it is timed: the first launch of a kernel after another kernel's is
// slower by several microseconds, which would charge the order of the runs
// to whichever configuration follows a change of kernel (the first
// threshold, the autotuned run).
void timeInterleaved(std::vector<Run> &runs, int reps, Timer &timer,
                     const std::function<float(Run &)> &once) {
  for (int round = 0; round <= reps; ++round) {
    const BackwardVariant *previous = nullptr;
    for (Run &r : runs) {
      if (r.threshold >= 0)
        setThreshold(*r.variant, r.threshold);
      if (r.variant != previous)
        (void)once(r);
      previous = r.variant;
      const float ms = once(r);
      if (round > 0)
        r.ms.push_back(ms);
    }
  }
}

// A number, or null where it is not defined (NaN).
std::string jsonNumber(double v) {
  if (!std::isfinite(v))
    return "null";
  std::ostringstream out;
  out << v;
  return out.str();
}

// A share in percent, "n/a" where it is not defined.
std::string percent(double share) {
  if (!std::isfinite(share))
    return "  n/a ";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%5.1f%%", 100 * share);
  return buf;
}

// The kernels of one launch of a variant's backward (kernel_resources.h).
struct VariantResources {
  const BackwardVariant *variant;
  dwk_bench::LaunchResources launch;
};

// Every variant of the case but the counting one (instrumentation, never
// timed). Freezes the search of the rewritten launchers' LaunchTuners.
std::vector<VariantResources> queryResources(const Case &c) {
  std::vector<VariantResources> all;
  for (const BackwardVariant &v : backwardVariants())
    if (!v.is("counted") && c.has(v))
      all.push_back({&v, dwk_bench::queryLaunchResources(
                             [&](cudaStream_t s) { c.backward(v, s); })});
  return all;
}

// One table line per kernel (the kernel's position after the variant's name
// where a launch has several), and one for the variant's error.
void printResources(const std::string &name,
                    const std::vector<VariantResources> &all) {
  for (const VariantResources &r : all) {
    const std::vector<dwk_bench::KernelResources> &kernels = r.launch.kernels;
    for (size_t i = 0; i < kernels.size(); ++i) {
      const dwk_bench::KernelResources &k = kernels[i];
      std::string variant = r.variant->name;
      if (kernels.size() > 1)
        variant += "#" + std::to_string(i);
      if (!k.error.empty()) {
        std::printf("%-30s %-24s error: %s\n", name.c_str(), variant.c_str(),
                    k.error.c_str());
        continue;
      }
      std::string shared = std::to_string(k.sharedBytes);
      if (k.dynamicSharedBytes)
        shared += "+" + std::to_string(k.dynamicSharedBytes);
      std::printf("%-30s %-24s %4d %6zu %9s %7d %9d %9s\n", name.c_str(),
                  variant.c_str(), k.registers, k.localBytes, shared.c_str(),
                  k.threads, k.blocksPerSM, percent(k.occupancy).c_str());
    }
    if (!r.launch.error.empty())
      std::printf("%-30s %-24s error: %s\n", name.c_str(), r.variant->name,
                  r.launch.error.c_str());
  }
}

// One kernel of a launch, as a JSON object.
std::string kernelJson(size_t position, const dwk_bench::KernelResources &k) {
  std::ostringstream json;
  json << "{\"position\": " << position;
  if (!k.name.empty())
    json << ", \"name\": " << jsonString(k.name);
  if (!k.error.empty())
    json << ", \"threads\": " << k.threads
         << ", \"error\": " << jsonString(k.error);
  else
    json << ", \"registers\": " << k.registers
         << ", \"local_bytes\": " << k.localBytes
         << ", \"shared_bytes\": " << k.sharedBytes
         << ", \"dynamic_shared_bytes\": " << k.dynamicSharedBytes
         << ", \"threads\": " << k.threads
         << ", \"blocks_per_sm\": " << k.blocksPerSM
         << ", \"occupancy\": " << k.occupancy;
  return json.str() + "}";
}

// {variant: {"kernels": [...], "error": "..."}}, each member where it applies.
std::string resourcesJson(const std::vector<VariantResources> &all) {
  std::ostringstream json;
  json << "{";
  for (size_t i = 0; i < all.size(); ++i) {
    const dwk_bench::LaunchResources &r = all[i].launch;
    json << (i ? "," : "") << "\n       " << jsonString(all[i].variant->name)
         << ": {";
    if (!r.kernels.empty()) {
      json << "\"kernels\": [";
      for (size_t k = 0; k < r.kernels.size(); ++k)
        json << (k ? ", " : "") << kernelJson(k, r.kernels[k]);
      json << "]";
    }
    if (!r.error.empty())
      json << (r.kernels.empty() ? "" : ", ")
           << "\"error\": " << jsonString(r.error);
    json << "}";
  }
  return json.str() + "}";
}

} // namespace

int main(int argc, char **argv) {
  dwk_bench::Options options;
  options.cases = kDefaultCases;
  options.reps = 7;
  // --list answers at once and ends the program, whatever follows it.
  const auto list = [](const char *arg) {
    if (std::strcmp(arg, "--list") != 0)
      return false;
    for (const std::string &c : kDefaultCases)
      std::printf("%s\n", c.c_str());
    std::exit(0);
  };
  if (!dwk_bench::parseOptions(argc, argv, "distwar_bench", options, list))
    return 2;
  if (!dwk_bench::haveDevice())
    return 0;
  const dwk_bench::RunInfo info = dwk_bench::runInfo();
  std::printf("device: %s; %s; median of %d launches after 1 warm-up round\n",
              info.prop.name, info.date.c_str(), options.reps);

  const BackwardVariant *plain = findBackwardVariant("plain");
  const BackwardVariant *floor = findBackwardVariant("floor");
  const BackwardVariant *counted = findBackwardVariant("counted");
  std::vector<const BackwardVariant *> all_tunable, all_fixed;
  for (const BackwardVariant &v : backwardVariants()) {
    if (v.tunable())
      all_tunable.push_back(&v);
    else if (v.handWritten())
      all_fixed.push_back(&v);
    if (v.handWritten())
      std::printf("%s\n", v.label().c_str());
  }

  std::ostringstream json;
  json << "{\n  \"device\": " << jsonString(info.prop.name)
       << ",\n  \"date\": " << jsonString(info.date)
       << ",\n  \"reps\": " << options.reps << ",\n  \"seed\": " << options.seed
       << ",\n  \"cases\": [";
  Timer timer;
  std::printf("\n%-30s %9s %8s %13s %9s\n", "case", "plain ms", "floor",
              "e2e plain ms", "e2e best");
  std::printf("  %-16s %6s %5s %6s %6s | %-31s | %s\n", "variant", "best",
              "(thr)", "gap", "thr0", "autotuned: speedup (thr) gap",
              "tuner search ms, vs direct");

  bool first_case = true;
  // Per case, the JSON since the previous case (the file's head before the
  // first), up to the last member of the case's object: the kernel
  // resources, read after all timing, close it.
  std::vector<std::string> open_cases;
  for (const std::string &name : options.cases) {
    std::unique_ptr<Case> c = makeCase(name, options.seed);
    if (!c) {
      std::fprintf(stderr, "distwar_bench: unknown case '%s'\n", name.c_str());
      return 2;
    }
    std::vector<const BackwardVariant *> tunable, fixed;
    for (const BackwardVariant *v : all_tunable)
      if (c->has(*v))
        tunable.push_back(v);
    for (const BackwardVariant *v : all_fixed)
      if (c->has(*v))
        fixed.push_back(v);

    // Backward alone: plain, floor, every tunable variant at every threshold,
    // every rewritten variant through its own autotuner (a fresh one per
    // case, so that the warm-up round runs its first search).
    std::vector<Run> runs;
    runs.push_back({plain, -1, {}});
    if (floor)
      runs.push_back({floor, -1, {}});
    for (const BackwardVariant *v : tunable)
      for (int t : sweptValues(*v))
        runs.push_back({v, t, {}});
    const size_t first_tuned = runs.size();
#if defined(DWK_HAVE_RUNTIME)
    std::vector<distwar::DeviceBuffer> outputs;
    for (const Output &o : c->outputs)
      outputs.push_back({o.ptr, o.bytes});
    distwar::TunerOptions tuner_options; // the defaults, whatever the env
    for (const BackwardVariant *v : tunable) {
      if (!v->rewritten())
        continue;
      distwar::TunerOptions o = tuner_options;
      o.forms = hasForms(*v);
      runs.push_back(
          {v, -1, {}, std::make_shared<Tuner>(std::vector<std::string>{}, o)});
    }
#endif
    // Hand-written variants without a threshold: one run each.
    const size_t first_fixed = runs.size();
    for (const BackwardVariant *v : fixed)
      runs.push_back({v, -1, {}});
    timeInterleaved(runs, options.reps, timer, [&](Run &r) {
#if defined(DWK_HAVE_RUNTIME)
      if (r.tuner) {
        // The other runs of the round rewrote the site tables; in use the
        // tuner is their only writer. Put its threshold back (untimed).
        const distwar::TunerStats st = r.tuner->stats();
        if (st.threshold >= 0)
          setThreshold(*r.variant, st.threshold);
        c->zero();
        return timer.time([&] {
          r.tuner->run(0, outputs, [&] { c->backward(*r.variant, 0); });
        });
      }
#endif
      c->zero();
      return timer.time([&] { c->backward(*r.variant, 0); });
    });
    const double t_plain = runs[0].median();
    const double t_floor = floor ? runs[1].median() : 0;
    // The share of the gap is undefined where the floor is not measurably
    // faster than plain (a workload whose floor output equals plain).
    const bool has_gap = floor && t_plain > kMinFloorSpeedup * t_floor;
    auto gap = [&](double t) {
      return has_gap ? (t_plain - t) / (t_plain - t_floor) : std::nan("");
    };

    // Best site value per tunable variant; per_threshold[i] is the time at
    // values[i] (0..34 first, so also indexed by a plain threshold).
    struct Best {
      int threshold = 0;
      double ms = 0, ms_thr0 = 0;
      std::vector<int> values;
      std::vector<double> per_threshold;
      const Run *tuned = nullptr;
      double at(int value) const {
        for (size_t i = 0; i < values.size(); ++i)
          if (values[i] == value)
            return per_threshold[i];
        return 0;
      }
    };
    std::vector<Best> best(tunable.size());
    size_t r = floor ? 2 : 1;
    for (size_t k = 0; k < tunable.size(); ++k) {
      best[k].values = sweptValues(*tunable[k]);
      for (int t : best[k].values) {
        const double ms = runs[r++].median();
        best[k].per_threshold.push_back(ms);
        if (t == 0 || ms < best[k].ms) {
          best[k].ms = ms;
          best[k].threshold = t;
        }
      }
      best[k].ms_thr0 = best[k].per_threshold[0];
      for (size_t i = first_tuned; i < runs.size(); ++i)
        if (runs[i].variant == tunable[k])
          best[k].tuned = &runs[i];
    }

    // Forward + backward per iteration: plain, floor, each variant at its
    // best threshold.
    std::vector<Run> e2e;
    e2e.push_back({plain, -1, {}});
    if (floor)
      e2e.push_back({floor, -1, {}});
    for (size_t k = 0; k < tunable.size(); ++k)
      e2e.push_back({tunable[k], best[k].threshold, {}});
    for (const BackwardVariant *v : fixed)
      e2e.push_back({v, -1, {}});
    timeInterleaved(e2e, options.reps, timer, [&](Run &run) {
      return timer.time([&] {
        c->forward();
        c->zero();
        c->backward(*run.variant, 0);
      });
    });

    // Active lanes and distinct keys per warp-level atomic call.
    dwk_count::Histogram h;
    if (counted) {
      dwk_count::readAll(true);
      c->zero();
      c->backward(*counted, 0);
      DWK_CHECK(cudaDeviceSynchronize());
      h = dwk_count::readAll(true);
    }

    // Table rows: the case, then one line per tunable variant.
    double e2e_best = e2e[0].median();
    for (size_t k = (floor ? 2 : 1); k < e2e.size(); ++k)
      e2e_best = std::min(e2e_best, e2e[k].median());
    std::printf("%-30s %9.3f %7.2fx %13.3f %8.2fx\n", name.c_str(), t_plain,
                floor ? t_plain / t_floor : 0.0, e2e[0].median(),
                e2e[0].median() / e2e_best);
    std::printf("  %s\n", c->details.c_str());
    for (size_t k = 0; k < tunable.size(); ++k) {
      std::printf("  %-16s %5.2fx (%3s) %s %5.2fx |", tunable[k]->name,
                  t_plain / best[k].ms, valueLabel(best[k].threshold).c_str(),
                  percent(gap(best[k].ms)).c_str(), t_plain / best[k].ms_thr0);
#if defined(DWK_HAVE_RUNTIME)
      if (const Run *tr = best[k].tuned) {
        const distwar::TunerStats st = tr->tuner->stats();
        const double ms = tr->median();
        const double direct = st.threshold >= 0 ? best[k].at(st.threshold) : 0;
        std::printf(" %5.2fx (%3s) %s           | %.2f ms, %+.1f%%",
                    t_plain / ms, valueLabel(st.threshold).c_str(),
                    percent(gap(ms)).c_str(),
                    st.overheadMs, direct > 0 ? 100 * (ms / direct - 1) : 0.0);
      } else
#endif
        std::printf(" %-31s |", tunable[k]->handWritten()
                                    ? "(hand-written: not autotuned)"
                                    : "-");
      std::printf("\n");
    }
    for (size_t k = 0; k < fixed.size(); ++k) {
      const double ms = runs[first_fixed + k].median();
      std::printf("  %-16s %5.2fx ( -) %s        | %-31s |\n", fixed[k]->name,
                  t_plain / ms, percent(gap(ms)).c_str(),
                  "(hand-written: no threshold)");
    }

    // JSON.
    json << (first_case ? "\n" : ",\n") << "    {\"case\": " << jsonString(name)
         << ", \"workload\": " << jsonString(c->workload)
         << ", \"preset\": " << jsonString(c->preset)
         << ", \"details\": " << jsonString(c->details)
         << ",\n     \"plain_ms\": " << t_plain;
    first_case = false;
    if (floor)
      json << ", \"floor_ms\": " << t_floor
           << ", \"floor_speedup\": " << t_plain / t_floor;
    json << ",\n     \"variants\": {";
    for (size_t k = 0; k < tunable.size(); ++k) {
      json << (k ? ", " : "") << "\n       " << jsonString(tunable[k]->name)
           << ": {\"label\": " << jsonString(tunable[k]->label())
           << ", \"hand_written\": "
           << (tunable[k]->handWritten() ? "true" : "false")
           << ", \"best_threshold\": " << (best[k].threshold & ~kSerialForm)
           << ", \"best_form\": "
           << (best[k].threshold & kSerialForm ? "\"serial\"" : "null")
           << ", \"best_ms\": " << best[k].ms
           << ", \"best_speedup\": " << t_plain / best[k].ms
           << ", \"best_gap_closed\": " << jsonNumber(gap(best[k].ms))
           << ", \"threshold_ms\": [";
      for (int t = 0; t <= kMaxThreshold; ++t)
        json << (t ? ", " : "") << best[k].per_threshold[t];
      json << "], \"threshold_speedup\": [";
      for (int t = 0; t <= kMaxThreshold; ++t)
        json << (t ? ", " : "") << t_plain / best[k].per_threshold[t];
      json << "], \"threshold_gap_closed\": [";
      for (int t = 0; t <= kMaxThreshold; ++t)
        json << (t ? ", " : "") << jsonNumber(gap(best[k].per_threshold[t]));
      json << "]";
      if (hasForms(*tunable[k])) {
        // serial:0..32, after the 35 plain values.
        json << ", \"serial_form_ms\": [";
        for (int t = 0; t < kSerialThresholds; ++t)
          json << (t ? ", " : "") << best[k].per_threshold[kMaxThreshold + 1 + t];
        json << "], \"serial_form_gap_closed\": [";
        for (int t = 0; t < kSerialThresholds; ++t)
          json << (t ? ", " : "")
               << jsonNumber(gap(best[k].per_threshold[kMaxThreshold + 1 + t]));
        json << "]";
      }
#if defined(DWK_HAVE_RUNTIME)
      if (const Run *tr = best[k].tuned) {
        // The tuner's own cost: its search (time beyond one launch), and
        // steady-state launches through it against direct launches at the
        // threshold it chose.
        const distwar::TunerStats st = tr->tuner->stats();
        const double ms = tr->median();
        json << ",\n         \"autotuned\": {\"threshold\": "
             << (st.threshold < 0 ? -1 : st.threshold & ~kSerialForm)
             << ", \"form\": "
             << (st.threshold >= 0 && (st.threshold & kSerialForm)
                     ? "\"serial\""
                     : "null")
             << ", \"ms\": " << ms << ", \"speedup\": " << t_plain / ms
             << ", \"gap_closed\": " << jsonNumber(gap(ms))
             << ", \"direct_ms_at_threshold\": "
             << (st.threshold >= 0 ? best[k].at(st.threshold) : 0)
             << ", \"calls\": " << st.calls << ", \"tunings\": " << st.tunings
             << ", \"search_trials\": " << st.lastTrials.size()
             << ", \"overhead_ms\": " << st.overheadMs
             << ", \"retune_overhead_ms\": " << st.retuneOverheadMs
             << ", \"kernel_ms\": " << st.kernelMs
             << ", \"overhead_fraction\": " << st.overheadFraction() << "}";
      }
#endif
      json << "}";
    }
    for (size_t k = 0; k < fixed.size(); ++k) {
      const double ms = runs[first_fixed + k].median();
      json << (tunable.empty() && k == 0 ? "" : ", ") << "\n       "
           << jsonString(fixed[k]->name)
           << ": {\"label\": " << jsonString(fixed[k]->label())
           << ", \"hand_written\": true, \"best_threshold\": -1"
           << ", \"best_ms\": " << ms << ", \"best_speedup\": " << t_plain / ms
           << ", \"best_gap_closed\": " << jsonNumber(gap(ms)) << "}";
    }
    json << "},\n     \"end_to_end_ms\": {";
    for (size_t k = 0; k < e2e.size(); ++k)
      json << (k ? ", " : "") << jsonString(e2e[k].variant->name) << ": "
           << e2e[k].median();
    json << "}";
    if (counted) {
      // calls[a][d]: warp-level atomic calls with a active lanes, d keys.
      unsigned long long calls = 0, lane_atomics = 0;
      json << ",\n     \"active_lanes_histogram\": [";
      for (int a = 0; a < dwk_count::kLanes; ++a) {
        unsigned long long n = 0;
        for (int d = 0; d < dwk_count::kLanes; ++d) {
          n += h.calls[a][d];
          lane_atomics += (unsigned long long)a * h.calls[a][d];
        }
        calls += n;
        json << (a ? ", " : "") << n;
      }
      json << "],\n     \"distinct_keys_histogram\": [";
      for (int d = 0; d < dwk_count::kLanes; ++d) {
        unsigned long long n = 0;
        for (int a = 0; a < dwk_count::kLanes; ++a)
          n += h.calls[a][d];
        json << (d ? ", " : "") << n;
      }
      // Per threshold t: warp calls reduced (>= t lanes) vs sent as plain
      // atomics, and the memory atomics a per-key (serial) reduction issues.
      json << "],\n     \"warp_calls\": " << calls
           << ", \"lane_atomics_plain\": " << lane_atomics
           << ",\n     \"per_threshold\": [";
      for (int t = 0; t <= kMaxThreshold; ++t) {
        unsigned long long reduced = 0, atomics = 0;
        for (int a = 0; a < dwk_count::kLanes; ++a)
          for (int d = 0; d < dwk_count::kLanes; ++d) {
            const bool reduce = a > 0 && a >= t;
            reduced += reduce ? h.calls[a][d] : 0;
            atomics += h.calls[a][d] * (reduce ? d : a);
          }
        json << (t ? ", " : "") << "{\"reduced_calls\": " << reduced
             << ", \"plain_calls\": " << calls - reduced
             << ", \"memory_atomics\": " << atomics << "}";
      }
      json << "]";
    }
    open_cases.push_back(json.str());
    json.str("");
  }

  // Kernel resources last: a capture stops the search of a rewritten
  // launcher's LaunchTuner for good (distwar/launch.h), and every case of a
  // workload shares its state. The scenes are made again (the same for the
  // seed) rather than all kept resident.
  std::printf("\nkernel resources, from one launch captured, not run: per "
              "thread registers and local bytes,\nper block static(+dynamic) "
              "shared bytes and threads, resident blocks per SM, theoretical "
              "occupancy\n");
  std::printf("%-30s %-24s %4s %6s %9s %7s %9s %9s\n", "case", "variant",
              "regs", "local", "shared", "threads", "blocks/SM", "occupancy");
  for (size_t i = 0; i < options.cases.size(); ++i) {
    const std::unique_ptr<Case> c = makeCase(options.cases[i], options.seed);
    const std::vector<VariantResources> resources = queryResources(*c);
    printResources(options.cases[i], resources);
    json << open_cases[i]
         << ",\n     \"resources\": " << resourcesJson(resources) << "}";
  }
  json << "\n  ]\n}\n";
  if (!dwk_bench::writeResults(options.outPath, json.str(), "distwar_bench"))
    return 1;
  return 0;
}
