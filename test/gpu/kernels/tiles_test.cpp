// GPU check of distwar-rewrite --balance=tiles on the 3DGS render
// (distwar_kernels_tiles: kernels/gaussians_forward.cu and
// gaussians_backward.cu rewritten by the tool, namespace dwk_tiles) against
// the plain kernels, on every output buffer.
//
//   distwar_tiles_gpu_test [--small] [seed]
//
// Forward: each output (final_T, n_contrib, colour, inverse depth) is
// poisoned before every launch; three launches in a row on one stream (the
// pool must come back to zero by itself), on the default stream and on a
// non-blocking one (a pool each); every pixel bit for bit against the plain
// kernel (a pixel's arithmetic is the same; only which block runs it
// changes). Backward (batched and balanced): every gradient field, with and
// without the depth loss, within the plain backward's own reordering noise
// (its float atomics reorder; four more launches of it measure that), at
// least 1e-5 in relative L2, as balance_test.cpp compares. Presets: the
// tiny ones, then severe, medium-clustered, early and small (not --small).
#include "KernelCheck.h"
#include "gaussians.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

DWK_DECLARE_GAUSSIAN_FORWARD(dwk_tiles)
DWK_DECLARE_GAUSSIAN_BACKWARD(dwk_tiles)
DWK_DECLARE_GAUSSIAN_BACKWARD(dwk_plain)

using namespace dwk;
using namespace kernelcheck;

namespace {

constexpr double kTolerance = 1e-5;
constexpr int kLaunches = 3;
constexpr int kPlainReruns = 4;
constexpr double kReorderMargin = 4;

// Relative L2 error; NaN when any element is not finite (poison).
double relL2(const Field<float> &got, const Field<float> &want) {
  double err = 0, norm = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    if (!std::isfinite(got[k]))
      return NAN;
    err += (got[k] - want[k]) * (got[k] - want[k]);
    norm += double(want[k]) * want[k];
  }
  return norm > 0 ? std::sqrt(err / norm) : std::sqrt(err);
}

struct ForwardOutputs {
  std::vector<float> final_T, color, invdepth;
  std::vector<uint32_t> n_contrib;
  bool operator==(const ForwardOutputs &o) const {
    return final_T == o.final_T && color == o.color && invdepth == o.invdepth &&
           n_contrib == o.n_contrib;
  }
};

template <typename Launch>
ForwardOutputs forward(GaussianDeviceScene &d, cudaStream_t stream,
                       const Launch &launch) {
  d.poisonForwardOutputs(stream);
  launch(d, stream);
  DWK_CHECK(cudaStreamSynchronize(stream));
  return {d.final_T.download(), d.out_color.download(),
          d.out_invdepth.download(), d.n_contrib.download()};
}

void checkForward(GaussianDeviceScene &d, const std::string &base,
                  cudaStream_t stream, const char *streamName) {
  const ForwardOutputs want =
      forward(d, stream,
              [](GaussianDeviceScene &s, cudaStream_t st) { s.forward(st); });
  for (int launch = 1; launch <= kLaunches; ++launch) {
    const ForwardOutputs got = forward(d, stream, dwk_tiles::gaussianForward);
    size_t differ = 0;
    for (size_t k = 0; k < got.n_contrib.size(); ++k)
      differ += got.n_contrib[k] != want.n_contrib[k];
    expect(got == want, base + " forward (" + streamName + ") launch " +
                            std::to_string(launch) + ": bit for bit (" +
                            std::to_string(differ) + " n_contrib differ)");
  }
}

using BackwardFn = void (*)(const GaussianBackwardArgs &, cudaStream_t);

std::vector<std::pair<std::string, std::vector<float>>>
backward(GaussianDeviceScene &d, BackwardFn k, bool with_depth,
         cudaStream_t stream) {
  d.zeroGradients(stream);
  k(d.backwardArgs(with_depth), stream);
  DWK_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::pair<std::string, std::vector<float>>> out = {
      {"dL_dmean2D", flat(d.dL_dmean2D.download())},
      {"dL_dconic2D", flat(d.dL_dconic2D.download())},
      {"dL_dopacity", d.dL_dopacity.download()},
      {"dL_dcolors", d.dL_dcolors.download()}};
  if (with_depth)
    out.push_back({"dL_dinvdepths", d.dL_dinvdepths.download()});
  return out;
}

void checkBackward(GaussianDeviceScene &d, const std::string &base,
                   bool with_depth, cudaStream_t stream) {
  const auto want =
      backward(d, dwk_plain::gaussianBackward, with_depth, stream);
  std::vector<double> noise(want.size(), 0);
  for (int rerun = 0; rerun < kPlainReruns; ++rerun) {
    const auto again =
        backward(d, dwk_plain::gaussianBackward, with_depth, stream);
    for (size_t i = 0; i < want.size(); ++i)
      noise[i] = std::max(noise[i],
                          relL2(field(again[i].second), field(want[i].second)));
  }
  for (int launch = 1; launch <= kLaunches; ++launch) {
    const auto got =
        backward(d, dwk_tiles::gaussianBackward, with_depth, stream);
    for (size_t i = 0; i < want.size(); ++i) {
      const double tolerance = std::max(kTolerance, kReorderMargin * noise[i]);
      const double rel = relL2(field(got[i].second), field(want[i].second));
      char buf[160];
      std::snprintf(buf, sizeof buf, ": rel L2 %.3g (tolerance %.3g) over %zu",
                    rel, tolerance, want[i].second.size());
      expect(rel <= tolerance,
             base + " backward" + (with_depth ? " (depth)" : "") + " launch " +
                 std::to_string(launch) + " " + want[i].first + buf);
    }
  }
}

void check(const char *preset, uint64_t seed, cudaStream_t second) {
  const GaussianScene scene =
      makeGaussianScene(*findGaussianPreset(preset), seed);
  GaussianDeviceScene d(scene);
  d.bin();
  DWK_CHECK(cudaDeviceSynchronize());
  const std::string base = std::string("gaussians/") + preset;
  std::printf("%s: %d Gaussians\n", base.c_str(), scene.P);
  checkForward(d, base, 0, "default stream");
  checkForward(d, base, second, "second stream");
  d.forward();
  DWK_CHECK(cudaDeviceSynchronize());
  checkBackward(d, base, true, 0);
  checkBackward(d, base, false, second);
}

} // namespace

int main(int argc, char **argv) {
  skipWithoutDevice();
  const Args args = parseArgs(argc, argv);
  cudaStream_t second = nullptr;
  DWK_CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  check("tiny", args.seed, second);
  check("tiny-severe", args.seed + 1, second);
  if (!args.small) {
    check("severe", args.seed + 2, second);
    check("medium-clustered", args.seed + 3, second);
    check("early", args.seed + 4, second);
    check("small", args.seed + 5, second);
  }
  DWK_CHECK(cudaStreamDestroy(second));
  return summary();
}
