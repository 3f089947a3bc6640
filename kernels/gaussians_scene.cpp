// Deterministic 2D Gaussian scenes (see README.md for the presets).
#include "gaussians.h"
#include "random.h"
#include "tiles.h"

#include <algorithm>
#include <cmath>

namespace dwk {

const std::vector<GaussianPreset> &gaussianPresets() {
  static const std::vector<GaussianPreset> presets = {
      {"tiny", 2000, 180, 120, 8.0, 0.6, 40.0, 0.5, 4, 0.4,
       "float64 CPU reference checks; image not a multiple of 16 (partial edge "
       "warps)"},
      {"small", 300000, 800, 800, 10.0, 0.6, 200.0, 0.3, 64, 0.4,
       "~300k Gaussians at 800x800"},
      {"medium", 1000000, 1264, 832, 5.0, 0.6, 200.0, 0.3, 64, 0.4,
       "~1M Gaussians at 1264x832"},
      {"large", 3000000, 1920, 1080, 3.0, 0.6, 200.0, 0.3, 64, 0.4,
       "~3M Gaussians at 1920x1080"},
      {"medium-uniform", 1000000, 1264, 832, 5.0, 0.6, 200.0, 0.0, 1, 0.4,
       "medium with uniform positions"},
      {"medium-clustered", 1000000, 1264, 832, 5.0, 0.6, 200.0, 0.9, 16, 0.4,
       "medium with 90% of the Gaussians in 16 clusters"},
      {"early", 30000, 1264, 832, 40.0, 0.5, 400.0, 0.3, 16, 0.7,
       "early training: few large, mostly transparent splats"},
      {"late", 2000000, 1264, 832, 2.5, 0.6, 60.0, 0.3, 64, 0.3,
       "late training: many small splats"},
      {"severe", 1000000, 1264, 832, 2.5, 0.6, 60.0, 0.0, 1, 0.3,
       "severe imbalance: 850k small splats over the image, 150k faint ones "
       "over about four tiles in front",
       150000, 5.0, 12.0, 0.0045},
      {"tiny-severe", 3000, 180, 120, 3.0, 0.6, 20.0, 0.0, 1, 0.3,
       "float64 CPU reference of the severe pattern: 2,000 small splats, "
       "1,000 faint ones over about four tiles",
       1000, 5.0, 12.0, 0.0045},
  };
  return presets;
}

const GaussianPreset *findGaussianPreset(const std::string &name) {
  for (const GaussianPreset &p : gaussianPresets())
    if (name == p.name)
      return &p;
  return nullptr;
}

GaussianScene makeGaussianScene(const GaussianPreset &preset, uint64_t seed) {
  GaussianScene s;
  s.preset = preset.name;
  s.W = preset.W;
  s.H = preset.H;
  s.P = preset.P;
  Rng rng(seed ^ 0x6A09E667F3BCC908ull);
  const double extent = std::min(s.W, s.H);
  std::vector<double> cluster_x(preset.clusters), cluster_y(preset.clusters);
  for (int c = 0; c < preset.clusters; ++c) {
    cluster_x[c] = rng.uniform(0.1, 0.9) * s.W;
    cluster_y[c] = rng.uniform(0.1, 0.9) * s.H;
  }
  s.means2D.resize(s.P);
  s.conic_opacity.resize(s.P);
  s.colors.resize(size_t(s.P) * NUM_CHANNELS);
  s.depths.resize(s.P);
  s.radii.resize(s.P);
  // The hot spot's centre: the tile corner nearest the image centre.
  const double hot_x = BLOCK_X * std::round(0.5 * s.W / BLOCK_X);
  const double hot_y = BLOCK_Y * std::round(0.5 * s.H / BLOCK_Y);
  for (int i = 0; i < s.P; ++i) {
    const bool hot = i >= s.P - preset.hot;
    double x, y;
    if (hot) {
      x = hot_x + rng.normal() * preset.hot_spread;
      y = hot_y + rng.normal() * preset.hot_spread;
    } else if (rng.uniform() < preset.clustered) {
      const int c = rng.below(preset.clusters);
      x = cluster_x[c] + rng.normal() * 0.05 * extent;
      y = cluster_y[c] + rng.normal() * 0.05 * extent;
    } else {
      x = rng.uniform(0, s.W);
      y = rng.uniform(0, s.H);
    }
    // Heavy-tailed (log-normal) 3-sigma extent, random anisotropy and angle.
    const double median = hot ? preset.hot_radius : preset.median_radius;
    const double r =
        std::clamp(median * std::exp(preset.radius_log_sigma * rng.normal()),
                   0.7, preset.max_radius);
    const double sigma_major = r / 3.0;
    const double sigma_minor = sigma_major * rng.uniform(0.25, 1.0);
    const double theta = rng.uniform(0, 3.141592653589793);
    const double c = std::cos(theta), sn = std::sin(theta);
    const double l1 = sigma_major * sigma_major, l2 = sigma_minor * sigma_minor;
    // 2D covariance plus 3DGS's low-pass filter (0.3 on the diagonal).
    const double ca = c * c * l1 + sn * sn * l2 + 0.3;
    const double cb = c * sn * (l1 - l2);
    const double cc = sn * sn * l1 + c * c * l2 + 0.3;
    const double det = ca * cc - cb * cb;
    const double mid = 0.5 * (ca + cc);
    const double lambda1 = mid + std::sqrt(std::max(0.1, mid * mid - det));
    // Bimodal opacity: nearly transparent or nearly opaque.
    double opacity = rng.uniform() < preset.low_opacity_share
                         ? rng.uniform(0.01, 0.2)
                         : rng.uniform(0.6, 0.99);
    if (hot)
      opacity = rng.uniform(0.25 * preset.hot_opacity, preset.hot_opacity);
    s.means2D[i] = make_float2(float(x), float(y));
    s.conic_opacity[i] = make_float4(float(cc / det), float(-cb / det),
                                     float(ca / det), float(opacity));
    s.radii[i] = int(std::ceil(3.0 * std::sqrt(lambda1)));
    s.depths[i] = float(hot ? rng.uniform(0.01, 0.2) : rng.uniform(0.2, 100.0));
    for (int ch = 0; ch < NUM_CHANNELS; ++ch)
      s.colors[size_t(i) * NUM_CHANNELS + ch] = float(rng.uniform());
  }
  s.bg_color.resize(NUM_CHANNELS);
  for (float &v : s.bg_color)
    v = float(rng.uniform());
  s.dL_dpixels.resize(size_t(NUM_CHANNELS) * s.W * s.H);
  for (float &v : s.dL_dpixels)
    v = float(rng.uniform(-1, 1));
  s.dL_invdepths.resize(size_t(s.W) * s.H);
  for (float &v : s.dL_invdepths)
    v = float(rng.uniform(-1, 1));
  return s;
}

} // namespace dwk
