//===- BranchesTest.cpp - Rewritten divergence kernels keep every gradient ===//
//
// For each kernel of Branches.cu: fresh random inputs, then the plain
// build (namespace dwb_plain, the reference) and every rewritten build
// (dwb_<variant>, distwar-rewrite's output) at site thresholds 0, 1, 16, 32
// and 33, and 0, 1, 16 and 32 in the serial form (auto's butterflies that
// have both forms take it; every other site ignores it), with the nullable
// output present and absent. Every output buffer
// starts from the same state (gradients from random values, so a store in
// place of an add shows; plain outputs poisoned with NaN), and every element
// is compared: floats within a relative tolerance (all added values are >= 0,
// so |value| is the sum of magnitudes), integers exactly, plain-store outputs
// bit for bit or within the same tolerance.
//
//   distwar_branches_gputest [--small]   (--small: one threshold, for the
//                                         sanitizers)
//
//===----------------------------------------------------------------------===//

#include "Branches.h"

#include "../runtime/GpuCheck.h"

#include <distwar/sites.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define DWB_VARIANT(ns, name)                                                  \
  namespace ns {                                                               \
  void launch(dwb::Kernel which, const dwb::Args &a);                          \
  }
DWB_VARIANT(dwb_plain, "plain")
#include "distwar_branches_variants.inc"
#undef DWB_VARIANT

namespace {

using LaunchFn = void (*)(dwb::Kernel, const dwb::Args &);

struct Variant {
  const char *name;
  LaunchFn launch;
};

const std::vector<Variant> &rewrittenVariants() {
  static const std::vector<Variant> list = {
#define DWB_VARIANT(ns, name) {name, &ns::launch},
#include "distwar_branches_variants.inc"
#undef DWB_VARIANT
  };
  return list;
}

const char *const kKernelNames[] = {
#define DWB_NAME(name) #name,
    DWB_KERNELS(DWB_NAME)
#undef DWB_NAME
};

// Relative tolerance on the sum of magnitudes: float sums of a few hundred
// terms in another order differ by ~1e-6; one dropped or doubled term of a
// typical size changes a sum by more than 1e-3.
constexpr double kRelTol = 5e-5;

template <typename T> T *deviceAlloc(size_t count) {
  T *p = nullptr;
  gpucheck::require(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
  return p;
}

template <typename T>
void upload(T *d, const std::vector<T> &h, const char *what) {
  gpucheck::require(
      cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice),
      what);
}

template <typename T>
std::vector<T> download(const T *d, size_t count, const char *what) {
  std::vector<T> h(count);
  gpucheck::require(
      cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost), what);
  return h;
}

/// Every output of one run, on the host.
struct Outputs {
  std::vector<float> ga, gb, gc, gopt, out;
  std::vector<unsigned> cnt;
  std::vector<int> hits;
};

/// Device buffers and the start state of the outputs, shared by every run of
/// one kernel.
class Harness {
public:
  Harness(int blocks, std::mt19937 &rng) {
    const int threads = blocks * dwb::kBlock;
    args_.blocks = blocks;
    args_.n = dwb::kIterations;
    args_.keys = blocks * dwb::kKeysPerBlock;
    // Edge warps for the early returns: the last one wholly returned, the one
    // before it with 13 of its 32 lanes returned.
    args_.npix = threads - 32 - 13;
    xs_ = static_cast<size_t>(threads) * args_.n;
    keys_ = args_.keys;
    threads_ = threads;
    x_ = deviceAlloc<float>(xs_);
    thr_ = deviceAlloc<float>(threads);
    ids_ = deviceAlloc<int>(threads);
    ga_ = deviceAlloc<float>(keys_);
    gb_ = deviceAlloc<float>(keys_);
    gc_ = deviceAlloc<float>(keys_);
    gopt_ = deviceAlloc<float>(keys_);
    cnt_ = deviceAlloc<unsigned>(keys_);
    hits_ = deviceAlloc<int>(keys_);
    out_ = deviceAlloc<float>(xs_);
    randomize(rng);
  }
  ~Harness() {
    for (void *p : {(void *)x_, (void *)thr_, (void *)ids_, (void *)ga_,
                    (void *)gb_, (void *)gc_, (void *)gopt_, (void *)cnt_,
                    (void *)hits_, (void *)out_})
      cudaFree(p);
  }
  Harness(const Harness &) = delete;
  Harness &operator=(const Harness &) = delete;

  /// Fresh inputs and start values of the gradients.
  void randomize(std::mt19937 &rng) {
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    std::vector<float> x(xs_), thr(threads_);
    for (float &v : x)
      v = unit(rng);
    // Per-lane thresholds, except warp 1 of each block: one value for every
    // lane (a warp that is wholly in or out at each branch).
    for (int i = 0; i < threads_; ++i)
      thr[i] = unit(rng);
    for (int b = 0; b < args_.blocks; ++b)
      for (int l = 0; l < 32; ++l)
        thr[b * dwb::kBlock + 32 + l] = thr[b * dwb::kBlock + 32];
    std::uniform_int_distribution<int> key(0, keys_ - 1);
    std::vector<int> ids(threads_);
    for (int &k : ids)
      k = key(rng);
    upload(x_, x, "upload x");
    upload(thr_, thr, "upload thr");
    upload(ids_, ids, "upload ids");
    start_.ga.resize(keys_);
    start_.gb.resize(keys_);
    start_.gc.resize(keys_);
    start_.gopt.resize(keys_);
    start_.cnt.resize(keys_);
    start_.hits.resize(keys_);
    for (size_t i = 0; i < keys_; ++i) {
      start_.ga[i] = unit(rng);
      start_.gb[i] = unit(rng);
      start_.gc[i] = unit(rng);
      start_.gopt[i] = unit(rng);
      start_.cnt[i] = static_cast<unsigned>(rng() % 1000);
      start_.hits[i] = static_cast<int>(rng() % 1000);
    }
  }

  /// Resets every output to the start state, runs `launch`, reads back.
  Outputs run(LaunchFn launch, dwb::Kernel which, bool withOpt,
              const std::string &what) {
    upload(ga_, start_.ga, "reset ga");
    upload(gb_, start_.gb, "reset gb");
    upload(gc_, start_.gc, "reset gc");
    upload(gopt_, start_.gopt, "reset gopt");
    upload(cnt_, start_.cnt, "reset cnt");
    upload(hits_, start_.hits, "reset hits");
    gpucheck::require(cudaMemset(out_, 0xff, xs_ * sizeof(float)),
                      "poison out");
    dwb::Args a = args_;
    a.x = x_;
    a.thr = thr_;
    a.ids = ids_;
    a.ga = ga_;
    a.gb = gb_;
    a.gc = gc_;
    a.gopt = withOpt ? gopt_ : nullptr;
    a.cnt = cnt_;
    a.hits = hits_;
    a.out = out_;
    launch(which, a);
    gpucheck::require(cudaGetLastError(), what.c_str());
    gpucheck::waitOrDie(what);
    Outputs o;
    o.ga = download(ga_, keys_, "read ga");
    o.gb = download(gb_, keys_, "read gb");
    o.gc = download(gc_, keys_, "read gc");
    o.gopt = download(gopt_, keys_, "read gopt");
    o.cnt = download(cnt_, keys_, "read cnt");
    o.hits = download(hits_, keys_, "read hits");
    o.out = download(out_, xs_, "read out");
    return o;
  }

private:
  dwb::Args args_{};
  size_t xs_ = 0, keys_ = 0;
  int threads_ = 0;
  float *x_ = nullptr, *thr_ = nullptr;
  int *ids_ = nullptr;
  float *ga_ = nullptr, *gb_ = nullptr, *gc_ = nullptr, *gopt_ = nullptr;
  unsigned *cnt_ = nullptr;
  int *hits_ = nullptr;
  float *out_ = nullptr;
  Outputs start_;
};

/// Mismatches of one float buffer; `worst` gets the largest relative error.
int compareFloats(const std::vector<float> &got, const std::vector<float> &ref,
                  double &worst, std::string &first, const char *name) {
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    uint32_t gb, rb;
    std::memcpy(&gb, &got[i], 4);
    std::memcpy(&rb, &ref[i], 4);
    if (gb == rb)
      continue;
    const double g = got[i], r = ref[i];
    const double scale = std::fmax(std::fabs(g), std::fabs(r));
    const double rel = std::isfinite(g) && std::isfinite(r)
                           ? std::fabs(g - r) / (scale > 0 ? scale : 1.0)
                           : INFINITY;
    if (rel > worst)
      worst = rel;
    if (rel > kRelTol) {
      if (bad++ == 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s[%zu]=%.9g expected %.9g", name, i, g,
                      r);
        first = buf;
      }
    }
  }
  return bad;
}

template <typename T>
int compareExact(const std::vector<T> &got, const std::vector<T> &ref,
                 std::string &first, const char *name) {
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    if (got[i] != ref[i] && bad++ == 0)
      first = std::string(name) + "[" + std::to_string(i) +
              "]=" + std::to_string(got[i]) + " expected " +
              std::to_string(ref[i]);
  return bad;
}

/// Compares every element; prints one line; returns whether all match.
bool compare(const Outputs &got, const Outputs &ref, const std::string &what) {
  double worst = 0;
  std::string first;
  int bad = compareFloats(got.ga, ref.ga, worst, first, "ga") +
            compareFloats(got.gb, ref.gb, worst, first, "gb") +
            compareFloats(got.gc, ref.gc, worst, first, "gc") +
            compareFloats(got.gopt, ref.gopt, worst, first, "gopt") +
            compareFloats(got.out, ref.out, worst, first, "out") +
            compareExact(got.cnt, ref.cnt, first, "cnt") +
            compareExact(got.hits, ref.hits, first, "hits");
  std::printf("%s %s: max rel err %.2e%s%s\n", bad ? "FAIL" : "ok  ",
              what.c_str(), worst, bad ? ", mismatches: " : "",
              bad ? (std::to_string(bad) + ", first " + first).c_str() : "");
  return bad == 0;
}

/// The plain kernel must change something, or the comparison proves nothing.
bool changedSomething(const Outputs &ref, const Outputs &start) {
  return ref.ga != start.ga || ref.cnt != start.cnt;
}

} // namespace

int main(int argc, char **argv) {
  gpucheck::skipWithoutDevice();
  const bool small = argc > 1 && std::string(argv[1]) == "--small";
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  using distwar::kSerialForm;
  const std::vector<int> thresholds =
      small ? std::vector<int>{0, kSerialForm}
            : std::vector<int>{0,           1,  16, 32, 33, kSerialForm,
                               kSerialForm | 1, kSerialForm | 16,
                               kSerialForm | 32};
  const int blocks = small ? 2 : 6;
  gpucheck::Tally tally;
  std::printf("variants: plain (reference)");
  for (const Variant &v : rewrittenVariants())
    std::printf(" %s", v.name);
  std::printf("\n");
  tally.check(!rewrittenVariants().empty(), "at least one rewritten variant");

  Harness h(blocks, rng);
  for (int k = 0; k < dwb::kKernelCount; ++k) {
    const auto kernel = static_cast<dwb::Kernel>(k);
    h.randomize(rng);
    for (bool withOpt : {true, false}) {
      const std::string tag =
          std::string(kKernelNames[k]) + (withOpt ? "" : " (gopt null)");
      const Outputs start = h.run([](dwb::Kernel, const dwb::Args &) {}, kernel,
                                  withOpt, tag + " start");
      const Outputs ref =
          h.run(&dwb_plain::launch, kernel, withOpt, tag + " plain");
      const bool changed = changedSomething(ref, start);
      std::printf("%s %s plain: adds to its gradients\n",
                  changed ? "ok  " : "FAIL", tag.c_str());
      tally.check(changed, tag + ": the plain kernel adds to its gradients");
      for (const Variant &v : rewrittenVariants())
        for (int t : thresholds) {
          distwar::setAllSiteThresholds(t);
          const std::string what =
              tag + " " + v.name + " threshold " + distwar::siteValueName(t);
          tally.check(
              compare(h.run(v.launch, kernel, withOpt, what), ref, what), what);
        }
    }
  }
  return tally.finish();
}
