// GPU correctness of the load-balanced 3DGS render kernels
// (gaussians_balance.h) against float64 and against the original kernels.
//
//   distwar_balance_gpu_test [--small] [seed]
//
// Fresh scenes each run (the seed, printed, reproduces a run). Forward: every
// output of every pixel is poisoned (NaN, UINT_MAX) before each launch and
// each kernel runs three times in a row on one tile queue (its counter must
// come back to zero by itself), then every pixel is checked: n_contrib
// exactly, final_T, colour and inverse depth each within 1e-4 of float64
// (relative, at least 1 in the scale) and within 1e-5 in relative L2 over
// the image. Backward: every gradient field against float64 (relative L2
// 1e-5), with and without the depth loss. The split kernels (heavy tiles in
// pieces, the others whole) also with about half the tiles heavy. On the large presets, against the
// original kernels instead: the dynamic-tiles forward bit for bit, the
// warp-per-pixel ones up to rounding (a pixel whose transmittance lands
// within rounding of the 1e-4 cut-off may stop one Gaussian apart: at most
// 1 pixel in 10^4); gradients within the reordering noise of the original
// itself (four more launches of it), as kernels_test.cpp measures it.
// --small: the tiny scenes only, for compute-sanitizer.
#include "KernelCheck.h"
#include "gaussians_balance.h"
#include "gaussians_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace dwk;
using namespace kernelcheck;

namespace {

constexpr double kTolerance = 1e-5;
constexpr double kPixelTolerance = 1e-4;
constexpr int kLaunches = 3;
constexpr int kPlainReruns = 4;
constexpr double kReorderMargin = 4;

// Relative L2 error; NaN (as poison reads) when any element is not finite.
template <typename G, typename W>
double relL2(const Field<G> &got, const Field<W> &want) {
  double err = 0, norm = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    if (!std::isfinite(got[k]))
      return NAN;
    err += (got[k] - want[k]) * (got[k] - want[k]);
    norm += want[k] * want[k];
  }
  return norm > 0 ? std::sqrt(err / norm) : std::sqrt(err);
}

template <typename G, typename W>
void expectClose(const Field<G> &got, const Field<W> &want,
                 const std::string &what, double tolerance = kTolerance) {
  const double rel = got.size() == want.size() ? relL2(got, want) : NAN;
  char buf[160];
  std::snprintf(buf, sizeof buf, ": rel L2 %.3g (tolerance %.3g) over %zu",
                rel, tolerance, got.size());
  expect(rel <= tolerance, what + buf);
}

// Every pixel within kPixelTolerance (relative, at least 1 in the scale)
// and the image within kTolerance in relative L2.
template <typename W>
void expectPixels(const std::vector<float> &got, const std::vector<W> &want,
                  const std::string &what) {
  size_t bad = got.size() == want.size() ? 0 : got.size() + 1;
  for (size_t k = 0; k < got.size() && k < want.size(); ++k) {
    const double w = double(want[k]);
    if (!(std::fabs(got[k] - w) <= kPixelTolerance * std::max(1.0, std::fabs(w))))
      ++bad;
  }
  expect(bad == 0, what + ": " + std::to_string(bad) + " of " +
                       std::to_string(want.size()) + " pixels off");
  expectClose(field(got), field(want), what);
}

size_t countDiffering(const std::vector<uint32_t> &a,
                      const std::vector<uint32_t> &b) {
  size_t n = a.size() == b.size() ? 0 : a.size() + b.size();
  for (size_t k = 0; k < a.size() && k < b.size(); ++k)
    n += a[k] != b[k];
  return n;
}

struct ForwardOutputs {
  std::vector<float> final_T, color, invdepth;
  std::vector<uint32_t> n_contrib;
};

// kLaunches launches on poisoned outputs; the outputs of each are checked
// by `check`.
template <typename Check>
void runForward(GaussianDeviceScene &d, ForwardKernel k, TilePool &pool,
                const Check &check) {
  for (int launch = 1; launch <= kLaunches; ++launch) {
    d.poisonForwardOutputs();
    renderForward(d, k, pool, 0);
    DWK_CHECK(cudaDeviceSynchronize());
    check(ForwardOutputs{d.final_T.download(), d.out_color.download(),
                         d.out_invdepth.download(), d.n_contrib.download()},
          " launch " + std::to_string(launch));
  }
}

// --- Gradients ---------------------------------------------------------------

struct Grads {
  std::vector<float> mean2D, conic, opacity, colors, invdepths;
};

Grads runBackward(GaussianDeviceScene &d, BackwardKernel k, TilePool &pool,
                  bool with_depth) {
  d.zeroGradients();
  renderBackward(d.backwardArgs(with_depth), k, pool, 0);
  DWK_CHECK(cudaDeviceSynchronize());
  return {flat(d.dL_dmean2D.download()), flat(d.dL_dconic2D.download()),
          d.dL_dopacity.download(), d.dL_dcolors.download(),
          d.dL_dinvdepths.download()};
}

// The compared fields of one gradient set, named, in a fixed order (the
// .z members of mean2D and conic are unused: checked zero separately).
template <typename T> struct GradFields {
  const std::vector<T> &mean2D, &conic, &opacity, &colors, &invdepths;

  std::vector<std::pair<std::string, Field<T>>> list(bool with_depth) const {
    std::vector<std::pair<std::string, Field<T>>> out = {
        {"dL_dmean2D.x", field(mean2D, 3, 0)},
        {"dL_dmean2D.y", field(mean2D, 3, 1)},
        {"dL_dconic2D.x", field(conic, 4, 0)},
        {"dL_dconic2D.y", field(conic, 4, 1)},
        {"dL_dconic2D.w", field(conic, 4, 3)},
        {"dL_dopacity", field(opacity)}};
    for (int ch = 0; ch < NUM_CHANNELS; ++ch)
      out.push_back({"dL_dcolors[" + std::to_string(ch) + "]",
                     field(colors, NUM_CHANNELS, ch)});
    if (with_depth)
      out.push_back({"dL_dinvdepths", field(invdepths)});
    return out;
  }
};

GradFields<float> fieldsOf(const Grads &g) {
  return {g.mean2D, g.conic, g.opacity, g.colors, g.invdepths};
}

// Field by field; `tolerance(i)` is the i-th field's (GradFields order).
template <typename W, typename Tol>
void compareGrads(const Grads &got, const GradFields<W> &want, bool with_depth,
                  const std::string &what, const Tol &tolerance) {
  const auto g = fieldsOf(got).list(with_depth);
  const auto w = want.list(with_depth);
  for (size_t i = 0; i < g.size(); ++i)
    expectClose(g[i].second, w[i].second, what + " " + g[i].first,
                tolerance(i));
  size_t nonzero = 0;
  for (size_t k = 0; k < got.mean2D.size() / 3; ++k)
    nonzero += got.mean2D[3 * k + 2] != 0 || got.conic[4 * k + 2] != 0;
  for (size_t k = 0; !with_depth && k < got.invdepths.size(); ++k)
    nonzero += got.invdepths[k] != 0;
  expect(nonzero == 0, what + " unused members: " + std::to_string(nonzero) +
                           " nonzero");
}

// --- Against float64 ---------------------------------------------------------

// Heavy-tile factors the split kernels are checked at: the default (the
// tiny scenes may have no heavy tile, or a few) and 1 (about half the tiles
// heavy: both paths in one launch).
const float kHeavyFactors[] = {TilePool::kHeavyFactor, 1.0f};

// The heavy tiles at the start of the pool's order.
uint32_t heavyTiles(const TilePool &pool) {
  uint32_t heavy = 0;
  DWK_CHECK(cudaMemcpy(&heavy, pool.heavyTiles(), sizeof heavy,
                       cudaMemcpyDeviceToHost));
  return heavy;
}

// Orders the pool at `factor`; away from the default, some tiles but not
// all must be heavy (else the split kernels would take one path only).
void orderAt(TilePool &pool, GaussianDeviceScene &d, float factor,
             const std::string &base) {
  pool.orderHeavyFirst(d.bins, d.W, d.H, 0, factor);
  DWK_CHECK(cudaDeviceSynchronize());
  const uint32_t heavy = heavyTiles(pool);
  std::printf("%s: %u of %zu tiles heavy at %gx the mean\n", base.c_str(),
              heavy, pool.tiles(), factor);
  if (factor != TilePool::kHeavyFactor)
    expect(heavy > 0 && heavy < pool.tiles(),
           base + ": some tiles heavy at 1x the mean, not all");
}

void checkForwardAgainstReference(GaussianDeviceScene &d, TilePool &pool,
                                  const GaussianForwardReference &ref,
                                  const std::string &base, bool split_only) {
  for (ForwardKernel k : allForwardKernels()) {
    if (split_only && k != ForwardKernel::kSplitHeavy)
      continue;
    const std::string what = base + " forward " + name(k);
    runForward(d, k, pool, [&](const ForwardOutputs &o, const std::string &l) {
      const size_t differ = countDiffering(o.n_contrib, ref.n_contrib);
      expect(differ == 0, what + l + " n_contrib: " + std::to_string(differ) +
                              " pixels differ");
      expectPixels(o.final_T, ref.final_T, what + l + " final_T");
      expectPixels(o.color, ref.color, what + l + " color");
      expectPixels(o.invdepth, ref.invdepth, what + l + " invdepth");
    });
  }
}

void checkAgainstReference(const char *preset, uint64_t seed) {
  GaussianScene scene = makeGaussianScene(*findGaussianPreset(preset), seed);
  const int nudged = removeAmbiguousDecisions(scene);
  const GaussianForwardReference ref = gaussianForwardReference(scene);
  std::printf("gaussians/%s: %d Gaussians, %d opacity nudges\n", preset,
              scene.P, nudged);
  GaussianDeviceScene d(scene);
  TilePool pool;
  d.bin();
  for (float factor : kHeavyFactors) {
    const bool split_only = factor != TilePool::kHeavyFactor;
    const std::string base = std::string("gaussians/") + preset +
                             (split_only ? " (heavy above 1x)" : "");
    orderAt(pool, d, factor, base);
    checkForwardAgainstReference(d, pool, ref, base, split_only);
    d.forward();
    DWK_CHECK(cudaDeviceSynchronize());
    for (bool with_depth : {true, false}) {
      const GaussianGradientReference g =
          gaussianBackwardReference(scene, ref, with_depth);
      const GradFields<double> want{g.mean2D, g.conic, g.opacity, g.colors,
                                    g.invdepths};
      for (BackwardKernel k : allBackwardKernels())
        if (!split_only || k == BackwardKernel::kSplitHeavy)
          compareGrads(runBackward(d, k, pool, with_depth), want, with_depth,
                       base + " backward " + name(k) +
                           (with_depth ? " +depth" : "") + " vs float64",
                       [](size_t) { return kTolerance; });
    }
  }
}

// --- Against the original kernels --------------------------------------------

// The share of pixels allowed to stop one Gaussian apart (see the top).
constexpr double kStopShare = 1e-4;

void checkForwardAgainstOriginal(GaussianDeviceScene &d, TilePool &pool,
                                 const std::string &base) {
  d.poisonForwardOutputs();
  d.forward();
  DWK_CHECK(cudaDeviceSynchronize());
  const ForwardOutputs want{d.final_T.download(), d.out_color.download(),
                            d.out_invdepth.download(), d.n_contrib.download()};
  for (ForwardKernel k : allForwardKernels()) {
    if (k == ForwardKernel::kOriginal)
      continue;
    const std::string what = base + " forward " + name(k) + " vs original";
    // These run the original's arithmetic on the same pairs in list order.
    const bool exact =
        k == ForwardKernel::kDynamicTiles || k == ForwardKernel::kCulled ||
        k == ForwardKernel::kCulledDynamic || k == ForwardKernel::kCulledBox ||
        k == ForwardKernel::kCulledBoxDynamic;
    runForward(d, k, pool, [&](const ForwardOutputs &o, const std::string &l) {
      const size_t differ = countDiffering(o.n_contrib, want.n_contrib);
      if (exact) {
        expect(differ == 0 && o.final_T == want.final_T &&
                   o.color == want.color && o.invdepth == want.invdepth,
               what + l + ": not bit for bit (" + std::to_string(differ) +
                   " n_contrib differ)");
        return;
      }
      expect(differ <= kStopShare * want.n_contrib.size(),
             what + l + " n_contrib: " + std::to_string(differ) +
                 " pixels differ");
      expectClose(field(o.final_T), field(want.final_T), what + l + " final_T");
      expectClose(field(o.color), field(want.color), what + l + " color");
      expectClose(field(o.invdepth), field(want.invdepth),
                  what + l + " invdepth");
    });
  }
}

void checkAgainstOriginal(const char *preset, uint64_t seed) {
  const GaussianScene scene =
      makeGaussianScene(*findGaussianPreset(preset), seed);
  GaussianDeviceScene d(scene);
  TilePool pool;
  d.bin();
  const std::string base = std::string("gaussians/") + preset;
  orderAt(pool, d, TilePool::kHeavyFactor, base);
  checkForwardAgainstOriginal(d, pool, base);
  d.forward();
  const Grads want = runBackward(d, BackwardKernel::kOriginal, pool, true);
  // Field i's tolerance: the original's own largest reordering difference
  // over kPlainReruns more launches.
  const auto w = fieldsOf(want).list(true);
  std::vector<double> noise(w.size(), 0);
  for (int rerun = 0; rerun < kPlainReruns; ++rerun) {
    const Grads again = runBackward(d, BackwardKernel::kOriginal, pool, true);
    const auto a = fieldsOf(again).list(true);
    for (size_t i = 0; i < w.size(); ++i)
      noise[i] = std::max(noise[i], relL2(a[i].second, w[i].second));
  }
  for (BackwardKernel k : allBackwardKernels()) {
    if (k == BackwardKernel::kOriginal)
      continue;
    compareGrads(runBackward(d, k, pool, true), fieldsOf(want), true,
                 base + " backward " + name(k) + " vs original",
                 [&](size_t i) {
                   return std::max(kTolerance, kReorderMargin * noise[i]);
                 });
  }
}

} // namespace

int main(int argc, char **argv) {
  kernelcheck::skipWithoutDevice();
  const kernelcheck::Args args = kernelcheck::parseArgs(argc, argv);
  checkAgainstReference("tiny", args.seed);
  checkAgainstReference("tiny-severe", args.seed + 1);
  if (!args.small) {
    checkAgainstOriginal("severe", args.seed + 2);
    checkAgainstOriginal("medium-clustered", args.seed + 3);
    checkAgainstOriginal("early", args.seed + 4);
  }
  return kernelcheck::summary();
}
