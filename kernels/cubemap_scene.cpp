// Deterministic cubemap and texture scenes (see README.md for the presets).
#include "cubemap.h"
#include "random.h"

#include <algorithm>

namespace dwk {

const std::vector<CubemapPreset> &cubemapPresets() {
  static const std::vector<CubemapPreset> presets = {
      {"tiny", 16, 0.5, "float64 CPU reference checks (diffuse and specular)"},
      {"diffuse-16", 16, 0.0, "nvdiffrec's irradiance map: 6x16x16"},
      {"diffuse-32", 32, 0.0, "a 6x32x32 irradiance map"},
      {"specular-32", 32, 0.5, "nvdiffrec's roughest mip (6x32x32, r=0.5)"},
      {"specular-64", 64, 0.395, "mip 6x64x64, r=0.395"},
      {"specular-128", 128, 0.29, "mip 6x128x128, r=0.29 (slow)"},
      {"specular-512", 512, 0.08, "base 6x512x512, r=0.08 (slow)"},
  };
  return presets;
}

const CubemapPreset *findCubemapPreset(const std::string &name) {
  for (const CubemapPreset &p : cubemapPresets())
    if (name == p.name)
      return &p;
  return nullptr;
}

const std::vector<TexturePreset> &texturePresets() {
  static const std::vector<TexturePreset> presets = {
      {"tiny", 24, 20, 70, 50, 3, -0.05, 1.05,
       "float64 CPU reference checks; corners outside the texture"},
      // Other channel counts: the rewriter versions the channel loop for 1
      // to 4 channels (GENERATED_CODE.md, section 11); 5 runs it as written.
      {"tiny-c1", 24, 20, 70, 50, 1, -0.05, 1.05, "as tiny, 1 channel"},
      {"tiny-c2", 24, 20, 70, 50, 2, -0.05, 1.05, "as tiny, 2 channels"},
      {"tiny-c4", 24, 20, 70, 50, 4, -0.05, 1.05, "as tiny, 4 channels"},
      {"tiny-c5", 24, 20, 70, 50, 5, -0.05, 1.05, "as tiny, 5 channels"},
      {"magnify", 256, 256, 1024, 1024, 3, 0.0, 1.0,
       "4x4 pixels per texel: neighbouring lanes share corners"},
      {"minify", 2048, 2048, 1024, 1024, 3, 0.0, 1.0,
       "2 texels per pixel: keys almost never coincide"},
  };
  return presets;
}

const TexturePreset *findTexturePreset(const std::string &name) {
  for (const TexturePreset &p : texturePresets())
    if (name == p.name)
      return &p;
  return nullptr;
}

namespace {

// nvdiffrec's __ndfBounds: the cosine at which the cumulative GGX lobe
// (sampled uniformly in angle) reaches `cutoff` of its total.
double ndfCutoff(double roughness, double cutoff) {
  const int n = 100000;
  const double alphaSqr = std::pow(roughness, 4.0);
  std::vector<double> cum(n);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += ndfGGX<double>(alphaSqr, std::cos(1.5707963267948966 * i / (n - 1)));
    cum[i] = sum;
  }
  for (int i = 0; i < n; ++i)
    if (cum[i] >= sum * cutoff)
      return std::cos(1.5707963267948966 * i / (n - 1));
  return 0;
}

// Moves the cutoff until no texel pair sits within 1e-5 of it, so that float
// and float64 take the same side of the test.
double separateCutoff(int N, double cutoff) {
  std::vector<Vec3<double>> dirs;
  for (int s = 0; s < 6; ++s)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x)
        dirs.push_back(cube_to_dir<double>(x, y, s, N));
  for (int attempt = 0; attempt < 100; ++attempt) {
    bool close = false;
    for (size_t i = 0; i < dirs.size() && !close; ++i)
      for (size_t j = 0; j < dirs.size() && !close; ++j)
        close = std::fabs(dot(dirs[i], dirs[j]) - cutoff) < 1e-5;
    if (!close)
      return cutoff;
    cutoff += 3e-5;
  }
  return cutoff;
}

} // namespace

CubemapScene makeCubemapScene(const CubemapPreset &preset, uint64_t seed) {
  CubemapScene s;
  s.preset = preset.name;
  s.N = preset.N;
  s.roughness = float(preset.roughness);
  if (preset.roughness > 0) {
    double cutoff = ndfCutoff(preset.roughness, 0.99);
    if (s.N <= 32)
      cutoff = separateCutoff(s.N, double(float(cutoff)));
    s.costheta_cutoff = float(cutoff);
  }
  Rng rng(seed ^ 0x3C6EF372FE94F82Bull);
  const size_t n = size_t(6) * s.N * s.N * 3;
  s.cubemap.resize(n);
  s.gradIn.resize(n);
  for (float &v : s.cubemap)
    v = float(rng.uniform(0, 2));
  for (float &v : s.gradIn)
    v = float(rng.uniform(-1, 1));
  return s;
}

TextureScene makeTextureScene(const TexturePreset &preset, uint64_t seed) {
  TextureScene s;
  s.preset = preset.name;
  s.texWidth = preset.texWidth;
  s.texHeight = preset.texHeight;
  s.imgWidth = preset.imgWidth;
  s.imgHeight = preset.imgHeight;
  s.channels = preset.channels;
  Rng rng(seed ^ 0xA54FF53A5F1D36F1ull);
  s.tex.resize(size_t(s.texWidth) * s.texHeight * s.channels);
  for (float &v : s.tex)
    v = float(rng.uniform());
  const double phase_u = rng.uniform(0, 6.28), phase_v = rng.uniform(0, 6.28);
  const int size[2] = {s.texWidth, s.texHeight};
  s.uv.resize(size_t(s.imgWidth) * s.imgHeight * 2);
  for (int y = 0; y < s.imgHeight; ++y) {
    for (int x = 0; x < s.imgWidth; ++x) {
      const double fx = (x + 0.5) / s.imgWidth, fy = (y + 0.5) / s.imgHeight;
      // A smooth, slightly warped mapping, as a rasterised mesh gives.
      double uv[2] = {fx + 0.01 * std::sin(6.28 * fy + phase_u),
                      fy + 0.01 * std::sin(6.28 * fx + phase_v)};
      for (int k = 0; k < 2; ++k) {
        uv[k] = preset.uv_lo + (preset.uv_hi - preset.uv_lo) * uv[k];
        const float uf = float(uv[k]);
        const double t = double(uf) * size[k] - 0.5;
        const double frac = t - std::floor(t);
        s.uv[(size_t(y) * s.imgWidth + x) * 2 + k] =
            (frac < 1e-3 || frac > 1 - 1e-3) ? float(uv[k] + 2e-3 / size[k])
                                             : uf;
      }
    }
  }
  s.dy.resize(size_t(s.imgWidth) * s.imgHeight * s.channels);
  for (float &v : s.dy)
    v = float(rng.uniform(-1, 1));
  return s;
}

} // namespace dwk
