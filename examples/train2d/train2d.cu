// Fits 2D Gaussians to a procedural image with Adam, through the 3DGS render
// kernels of kernels (forward, binning, backward). The backward is
// built three times from one source: plain atomics, and rewritten by
// distwar-rewrite with --variant=auto and --variant=serial. Every variant
// trains from the same initial state in one process, so times per
// iteration are compared side by side.
#include "gaussians.h"
#include "png.h"
#include "tiles.h"

#include <distwar/sites.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

DWK_DECLARE_GAUSSIAN_BACKWARD(train2d_plain)
DWK_DECLARE_GAUSSIAN_BACKWARD(train2d_auto)
DWK_DECLARE_GAUSSIAN_BACKWARD(train2d_serial)

namespace {

using BackwardFn = void (*)(const dwk::GaussianBackwardArgs &, cudaStream_t);
struct Variant {
  const char *name;
  BackwardFn backward;
};
const Variant kVariants[] = {{"plain", train2d_plain::gaussianBackward},
                             {"auto", train2d_auto::gaussianBackward},
                             {"serial", train2d_serial::gaussianBackward}};

// Per Gaussian: mean (pixels), log scales, rotation, opacity logit, colour
// logits.
constexpr int kParams = 9;
enum { kMx, kMy, kLs1, kLs2, kTheta, kOpacity, kR, kG, kB };

struct Options {
  int size = 256, gaussians = 4096, iterations = 1000, log_every = 100;
  unsigned seed = 1;
  std::string out_dir = ".", variants = "all";
};

__device__ __host__ inline float sigmoid(float x) { return 1.f / (1.f + expf(-x)); }

// Parameters -> what the renderer takes (3DGS's preprocess, in 2D).
__global__ void buildRenderInputs(int P, int W, int H, const float *params,
                                  float2 *means, float4 *conic_opacity,
                                  float *colors, float *depths, int *radii) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= P)
    return;
  const float *p = params + size_t(i) * kParams;
  float s1 = expf(2 * p[kLs1]), s2 = expf(2 * p[kLs2]); // variances
  float c = cosf(p[kTheta]), s = sinf(p[kTheta]);
  // Covariance plus 3DGS's 0.3 px^2 low-pass on the diagonal.
  float a = s1 * c * c + s2 * s * s + 0.3f;
  float b = (s1 - s2) * c * s;
  float d = s1 * s * s + s2 * c * c + 0.3f;
  float det = a * d - b * b;
  means[i] = make_float2(p[kMx], p[kMy]);
  conic_opacity[i] = make_float4(d / det, -b / det, a / det, sigmoid(p[kOpacity]));
  for (int ch = 0; ch < 3; ++ch)
    colors[i * 3 + ch] = sigmoid(p[kR + ch]);
  depths[i] = 1.f + float(i) / P; // fixed, distinct: a stable draw order
  float mid = 0.5f * (a + d);
  float lambda = mid + sqrtf(fmaxf(0.1f, mid * mid - det));
  radii[i] = min(int(ceilf(3.f * sqrtf(lambda))), max(W, H));
}

// Mean squared error over pixels and channels, and its gradient.
__global__ void lossAndGradient(int n, const float *image, const float *target,
                                float *dL_dpixels, double *loss) {
  __shared__ double partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double e = 0;
  if (i < n) {
    float diff = image[i] - target[i];
    dL_dpixels[i] = 2.f * diff / n;
    e = double(diff) * diff / n;
  }
  partial[threadIdx.x] = e;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(loss, partial[0]);
}

// Renderer gradients -> parameter gradients, then one Adam step.
__global__ void adamStep(int P, int W, int H, int step, float *params,
                         float *m, float *v, const float3 *dL_dmean2D,
                         const float4 *dL_dconic, const float *dL_dopacity,
                         const float *dL_dcolors) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= P)
    return;
  float *p = params + size_t(i) * kParams;
  float g[kParams];
  // The renderer differentiates NDC means: d ndc / d pixel = 2 / W.
  g[kMx] = dL_dmean2D[i].x / (0.5f * W);
  g[kMy] = dL_dmean2D[i].y / (0.5f * H);

  float s1 = expf(2 * p[kLs1]), s2 = expf(2 * p[kLs2]);
  float c = cosf(p[kTheta]), s = sinf(p[kTheta]);
  float a = s1 * c * c + s2 * s * s + 0.3f;
  float b = (s1 - s2) * c * s;
  float d = s1 * s * s + s2 * c * c + 0.3f;
  float det = a * d - b * b;
  float ia = d / det, ib = -b / det, id = a / det; // the conic
  // The renderer's .y is half the derivative by the off-diagonal entry; as a
  // symmetric matrix gradient, each off-diagonal element gets dL/dB / 2.
  float ga = dL_dconic[i].x, gb = dL_dconic[i].y, gd = dL_dconic[i].w;
  // dL/dSigma = -Sigma^-1 G Sigma^-1 (G symmetric: [[ga, gb], [gb, gd]]).
  float t00 = ia * ga + ib * gb, t01 = ia * gb + ib * gd;
  float t10 = ib * ga + id * gb, t11 = ib * gb + id * gd;
  float dA = -(t00 * ia + t01 * ib);
  float dB = -(t00 * ib + t01 * id) * 2.f; // b appears twice in Sigma
  float dD = -(t10 * ib + t11 * id);
  g[kLs1] = 2 * s1 * (dA * c * c + dB * c * s + dD * s * s);
  g[kLs2] = 2 * s2 * (dA * s * s - dB * c * s + dD * c * c);
  g[kTheta] = (s1 - s2) * (-2 * c * s * dA + (c * c - s * s) * dB + 2 * c * s * dD);
  float opacity = sigmoid(p[kOpacity]);
  g[kOpacity] = dL_dopacity[i] * opacity * (1 - opacity);
  for (int ch = 0; ch < 3; ++ch) {
    float col = sigmoid(p[kR + ch]);
    g[kR + ch] = dL_dcolors[i * 3 + ch] * col * (1 - col);
  }

  const float lr[kParams] = {0.25f, 0.25f, 0.01f, 0.01f, 0.02f, 0.05f, 0.05f, 0.05f, 0.05f};
  const float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
  float bias1 = 1 - powf(beta1, step), bias2 = 1 - powf(beta2, step);
  for (int k = 0; k < kParams; ++k) {
    size_t j = size_t(i) * kParams + k;
    m[j] = beta1 * m[j] + (1 - beta1) * g[k];
    v[j] = beta2 * v[j] + (1 - beta2) * g[k] * g[k];
    p[k] -= lr[k] * (m[j] / bias1) / (sqrtf(v[j] / bias2) + eps);
  }
  // Keep footprints between a pixel and the image.
  float max_log = logf(0.5f * max(W, H));
  p[kLs1] = fminf(fmaxf(p[kLs1], -1.f), max_log);
  p[kLs2] = fminf(fmaxf(p[kLs2], -1.f), max_log);
}

// A procedural target, planar RGB in [0, 1]: soft gradients, discs, rings
// and stripes, so that both broad and fine structure must be fitted.
std::vector<float> makeTarget(int W, int H) {
  std::vector<float> img(3 * size_t(W) * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float u = (x + 0.5f) / W, v = (y + 0.5f) / H;
      float rgb[3] = {0.15f + 0.6f * u, 0.2f + 0.5f * v, 0.55f - 0.35f * u * v};
      auto disc = [&](float cx, float cy, float r, float cr, float cg, float cb) {
        float dist = std::hypot(u - cx, v - cy);
        float w = std::clamp((r - dist) * 200.f, 0.f, 1.f);
        rgb[0] += w * (cr - rgb[0]);
        rgb[1] += w * (cg - rgb[1]);
        rgb[2] += w * (cb - rgb[2]);
      };
      disc(0.3f, 0.35f, 0.18f, 0.95f, 0.8f, 0.2f);
      disc(0.72f, 0.6f, 0.14f, 0.1f, 0.45f, 0.9f);
      float ring = std::hypot(u - 0.55f, v - 0.3f);
      if (std::fabs(ring - 0.12f) < 0.015f)
        rgb[0] = 0.9f, rgb[1] = 0.1f, rgb[2] = 0.3f;
      if (v > 0.78f && std::fmod(u * 24.f, 1.f) < 0.5f)
        for (float &c : rgb)
          c = 0.9f * c + 0.1f;
      for (int ch = 0; ch < 3; ++ch)
        img[size_t(ch) * W * H + size_t(y) * W + x] = std::clamp(rgb[ch], 0.f, 1.f);
    }
  return img;
}

bool savePlanar(const std::string &path, int W, int H, const std::vector<float> &img) {
  std::vector<unsigned char> rgb(3 * size_t(W) * H);
  for (size_t pix = 0; pix < size_t(W) * H; ++pix)
    for (int ch = 0; ch < 3; ++ch)
      rgb[pix * 3 + ch] = (unsigned char)std::lround(
          255.f * std::clamp(img[ch * size_t(W) * H + pix], 0.f, 1.f));
  return train2d::writePng(path, W, H, rgb);
}

std::vector<float> initialParams(const Options &o) {
  std::vector<float> params(size_t(o.gaussians) * kParams);
  uint64_t state = o.seed * 0x9E3779B97F4A7C15ull + 1;
  auto uniform = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return float((state >> 40) * (1.0 / (1ull << 24)));
  };
  float spacing = std::sqrt(float(o.size) * o.size / o.gaussians);
  for (int i = 0; i < o.gaussians; ++i) {
    float *p = &params[size_t(i) * kParams];
    p[kMx] = uniform() * o.size;
    p[kMy] = uniform() * o.size;
    p[kLs1] = p[kLs2] = std::log(0.6f * spacing);
    p[kTheta] = uniform() * 3.14159265f;
    p[kOpacity] = 0.f;
    for (int ch = 0; ch < 3; ++ch)
      p[kR + ch] = 0.f;
  }
  return params;
}

struct Result {
  double loss = 0, psnr = 0, ms_iteration = 0, ms_backward = 0;
};

Result train(const Variant &variant, const Options &o,
             const std::vector<float> &target_host) {
  const int W = o.size, H = o.size, P = o.gaussians;
  dwk::GaussianScene host;
  host.preset = "train2d";
  host.W = W, host.H = H, host.P = P;
  host.means2D.assign(P, make_float2(0, 0));
  host.conic_opacity.assign(P, make_float4(1, 0, 1, 0));
  host.colors.assign(size_t(P) * 3, 0);
  host.depths.assign(P, 1);
  host.radii.assign(P, 1);
  host.bg_color.assign(3, 0);
  host.dL_dpixels.assign(3 * size_t(W) * H, 0);
  host.dL_invdepths.assign(size_t(W) * H, 0);
  dwk::GaussianDeviceScene scene(host);

  std::vector<float> init = initialParams(o);
  dwk::DeviceBuffer<float> params, adam_m, adam_v, target;
  dwk::DeviceBuffer<double> loss;
  params.upload(init);
  adam_m.resize(init.size());
  adam_v.resize(init.size());
  adam_m.zero();
  adam_v.zero();
  target.upload(target_host);
  loss.resize(1);

  cudaEvent_t start, stop, bw_start, bw_stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventCreate(&bw_start);
  cudaEventCreate(&bw_stop);
  const int n = 3 * W * H, threads = 256;
  Result r;
  double total_ms = 0, backward_ms = 0;
  int timed = 0;
  std::printf("[%s] %d Gaussians, %dx%d, %d iterations\n", variant.name, P, W, H,
              o.iterations);
  for (int it = 1; it <= o.iterations; ++it) {
    cudaEventRecord(start);
    buildRenderInputs<<<(P + threads - 1) / threads, threads>>>(
        P, W, H, params.data(), scene.means2D.data(), scene.conic_opacity.data(),
        scene.colors.data(), scene.depths.data(), scene.radii.data());
    scene.bin();
    scene.forward();
    loss.zero();
    lossAndGradient<<<(n + threads - 1) / threads, threads>>>(
        n, scene.out_color.data(), target.data(), scene.dL_dpixels.data(), loss.data());
    scene.zeroGradients();
    cudaEventRecord(bw_start);
    variant.backward(scene.backwardArgs(false), 0);
    cudaEventRecord(bw_stop);
    adamStep<<<(P + threads - 1) / threads, threads>>>(
        P, W, H, it, params.data(), adam_m.data(), adam_v.data(),
        scene.dL_dmean2D.data(), scene.dL_dconic2D.data(), scene.dL_dopacity.data(),
        scene.dL_dcolors.data());
    cudaEventRecord(stop);
    DWK_CHECK(cudaEventSynchronize(stop));
    float ms = 0, bw = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventElapsedTime(&bw, bw_start, bw_stop);
    if (it > 10) { // warm-up excluded
      total_ms += ms;
      backward_ms += bw;
      ++timed;
    }
    r.loss = loss.download()[0];
    r.psnr = 10.0 * std::log10(1.0 / std::max(r.loss, 1e-12));
    if (it % o.log_every == 0 || it == o.iterations)
      std::printf("[%s] iter %5d  loss %.6f  PSNR %6.2f dB  %.3f ms/iter "
                  "(backward %.3f ms)\n",
                  variant.name, it, r.loss, r.psnr, ms, bw);
  }
  r.ms_iteration = timed ? total_ms / timed : 0;
  r.ms_backward = timed ? backward_ms / timed : 0;
  savePlanar(o.out_dir + "/result_" + variant.name + ".png", W, H,
             scene.out_color.download());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaEventDestroy(bw_start);
  cudaEventDestroy(bw_stop);
  return r;
}

void usage() {
  std::fprintf(stderr,
               "usage: distwar-train2d [--size N] [--gaussians N] [--iterations N]\n"
               "                       [--log-every N] [--seed N] [--out DIR]\n"
               "                       [--variants all|plain,auto,serial]\n");
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "distwar-train2d: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--size") o.size = std::atoi(value());
    else if (a == "--gaussians") o.gaussians = std::atoi(value());
    else if (a == "--iterations") o.iterations = std::atoi(value());
    else if (a == "--log-every") o.log_every = std::max(1, std::atoi(value()));
    else if (a == "--seed") o.seed = unsigned(std::atoi(value()));
    else if (a == "--out") o.out_dir = value();
    else if (a == "--variants") o.variants = value();
    else {
      usage();
      return 2;
    }
  }
  if (o.size < 16 || o.gaussians < 1 || o.iterations < 1) {
    usage();
    return 2;
  }

  std::printf("distwar sites:");
  for (const std::string &s : distwar::siteNames())
    std::printf(" %s", s.c_str());
  std::printf("\n");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device: %s\n", prop.name);

  std::vector<float> target = makeTarget(o.size, o.size);
  if (!savePlanar(o.out_dir + "/target.png", o.size, o.size, target))
    return 1;

  std::vector<std::pair<const Variant *, Result>> results;
  for (const Variant &v : kVariants) {
    if (o.variants != "all" &&
        ("," + o.variants + ",").find("," + std::string(v.name) + ",") == std::string::npos)
      continue;
    results.push_back({&v, train(v, o, target)});
  }
  if (results.empty()) {
    usage();
    return 2;
  }

  std::printf("\n| variant | final loss | PSNR (dB) | ms/iteration | backward ms | backward speedup vs plain |\n"
              "|---|---|---|---|---|---|\n");
  const Result *plain = nullptr;
  for (auto &[v, r] : results)
    if (std::string(v->name) == "plain")
      plain = &r;
  for (auto &[v, r] : results) {
    std::printf("| %s | %.6f | %.2f | %.3f | %.3f | ", v->name, r.loss, r.psnr,
                r.ms_iteration, r.ms_backward);
    if (plain && r.ms_backward > 0)
      std::printf("%.2fx |\n", plain->ms_backward / r.ms_backward);
    else
      std::printf("- |\n");
  }
  std::printf("PNGs: %s/target.png, %s/result_<variant>.png\n", o.out_dir.c_str(),
              o.out_dir.c_str());
  return 0;
}
