#include "gaussians_reference.h"
#include "tiles.h"

#include <algorithm>
#include <cmath>

namespace dwk {
namespace {

constexpr int C = NUM_CHANNELS;

// Per tile, the Gaussians that the GPU binning assigns to it, front to back
// (the GPU's stable radix sort on depth keeps index order on ties).
std::vector<std::vector<int>> tileLists(const GaussianScene &s) {
  const dim3 grid = tileGrid(s.W, s.H);
  std::vector<std::vector<int>> lists(size_t(grid.x) * grid.y);
  for (int i = 0; i < s.P; ++i) {
    if (s.radii[i] <= 0)
      continue;
    uint2 rect_min, rect_max;
    getRect(s.means2D[i], s.radii[i], rect_min, rect_max, grid);
    for (unsigned y = rect_min.y; y < rect_max.y; ++y)
      for (unsigned x = rect_min.x; x < rect_max.x; ++x)
        lists[y * grid.x + x].push_back(i);
  }
  for (std::vector<int> &list : lists)
    std::stable_sort(list.begin(), list.end(),
                     [&](int a, int b) { return s.depths[a] < s.depths[b]; });
  return lists;
}

bool nearRelative(double value, double threshold) {
  return std::fabs(value - threshold) < 1e-4 * threshold;
}

struct Blend {
  double power, G, alpha;
};

// The per-pair quantities of the forward and backward kernels, in float64.
Blend blend(const GaussianScene &s, int id, double px, double py) {
  const float2 xy = s.means2D[id];
  const float4 con_o = s.conic_opacity[id];
  const double dx = xy.x - px, dy = xy.y - py;
  Blend b;
  b.power = -0.5 * (double(con_o.x) * dx * dx + double(con_o.z) * dy * dy) -
            double(con_o.y) * dx * dy;
  b.G = std::exp(b.power);
  b.alpha = std::min(0.99, double(con_o.w) * b.G);
  return b;
}

} // namespace

GaussianForwardReference gaussianForwardReference(const GaussianScene &s) {
  const dim3 grid = tileGrid(s.W, s.H);
  const std::vector<std::vector<int>> lists = tileLists(s);
  const size_t pixels = size_t(s.W) * s.H;
  GaussianForwardReference f;
  f.final_T.assign(pixels, 0);
  f.color.assign(C * pixels, 0);
  f.invdepth.assign(pixels, 0);
  f.n_contrib.assign(pixels, 0);
  std::vector<char> ambiguous(s.P, 0);
  for (int py = 0; py < s.H; ++py) {
    for (int px = 0; px < s.W; ++px) {
      const std::vector<int> &list =
          lists[(py / BLOCK_Y) * grid.x + px / BLOCK_X];
      double T = 1, col[C] = {0}, invd = 0;
      uint32_t contributor = 0, last_contributor = 0;
      for (int id : list) {
        ++contributor;
        const Blend b = blend(s, id, px, py);
        if (b.power > 0)
          continue;
        if (nearRelative(b.alpha, 1.0 / 255.0))
          ambiguous[id] = 1;
        if (b.alpha < 1.0 / 255.0)
          continue;
        const double test_T = T * (1 - b.alpha);
        if (nearRelative(test_T, 1e-4))
          ambiguous[id] = 1;
        if (test_T < 1e-4)
          break;
        for (int ch = 0; ch < C; ++ch)
          col[ch] += s.colors[size_t(id) * C + ch] * b.alpha * T;
        invd += (1.0 / s.depths[id]) * b.alpha * T;
        T = test_T;
        last_contributor = contributor;
      }
      const size_t pix = size_t(py) * s.W + px;
      f.final_T[pix] = T;
      f.n_contrib[pix] = last_contributor;
      for (int ch = 0; ch < C; ++ch)
        f.color[ch * pixels + pix] = col[ch] + T * s.bg_color[ch];
      f.invdepth[pix] = invd;
    }
  }
  for (int i = 0; i < s.P; ++i)
    if (ambiguous[i])
      f.ambiguous.push_back(i);
  return f;
}

GaussianGradientReference
gaussianBackwardReference(const GaussianScene &s,
                          const GaussianForwardReference &f, bool with_depth) {
  const dim3 grid = tileGrid(s.W, s.H);
  const std::vector<std::vector<int>> lists = tileLists(s);
  const size_t pixels = size_t(s.W) * s.H;
  GaussianGradientReference g;
  g.mean2D.assign(3 * size_t(s.P), 0);
  g.conic.assign(4 * size_t(s.P), 0);
  g.opacity.assign(s.P, 0);
  g.colors.assign(C * size_t(s.P), 0);
  g.invdepths.assign(s.P, 0);
  const double ddelx_dx = 0.5 * s.W, ddely_dy = 0.5 * s.H;
  double bg_dot_dpixel;
  for (int py = 0; py < s.H; ++py) {
    for (int px = 0; px < s.W; ++px) {
      const size_t pix = size_t(py) * s.W + px;
      const std::vector<int> &list =
          lists[(py / BLOCK_Y) * grid.x + px / BLOCK_X];
      const double T_final = f.final_T[pix];
      double T = T_final;
      double dL_dpixel[C], accum_rec[C] = {0}, last_color[C] = {0};
      bg_dot_dpixel = 0;
      for (int ch = 0; ch < C; ++ch) {
        dL_dpixel[ch] = s.dL_dpixels[ch * pixels + pix];
        bg_dot_dpixel += double(s.bg_color[ch]) * dL_dpixel[ch];
      }
      const double dL_invdepth = s.dL_invdepths[pix];
      double accum_invdepth_rec = 0, last_invdepth = 0, last_alpha = 0;
      for (int k = int(f.n_contrib[pix]) - 1; k >= 0; --k) {
        const int id = list[k];
        const Blend b = blend(s, id, px, py);
        if (b.power > 0 || b.alpha < 1.0 / 255.0)
          continue;
        T = T / (1 - b.alpha);
        const double dchannel_dcolor = b.alpha * T;
        double dL_dalpha = 0;
        for (int ch = 0; ch < C; ++ch) {
          const double c = s.colors[size_t(id) * C + ch];
          accum_rec[ch] =
              last_alpha * last_color[ch] + (1 - last_alpha) * accum_rec[ch];
          last_color[ch] = c;
          dL_dalpha += (c - accum_rec[ch]) * dL_dpixel[ch];
          g.colors[size_t(id) * C + ch] += dchannel_dcolor * dL_dpixel[ch];
        }
        if (with_depth) {
          const double invd = 1.0 / s.depths[id];
          accum_invdepth_rec = last_alpha * last_invdepth +
                               (1 - last_alpha) * accum_invdepth_rec;
          last_invdepth = invd;
          dL_dalpha += (invd - accum_invdepth_rec) * dL_invdepth;
          g.invdepths[id] += dchannel_dcolor * dL_invdepth;
        }
        dL_dalpha *= T;
        last_alpha = b.alpha;
        dL_dalpha += (-T_final / (1 - b.alpha)) * bg_dot_dpixel;

        const float4 con_o = s.conic_opacity[id];
        const double dx = s.means2D[id].x - double(px);
        const double dy = s.means2D[id].y - double(py);
        const double dL_dG = con_o.w * dL_dalpha;
        const double gdx = b.G * dx, gdy = b.G * dy;
        const double dG_ddelx = -gdx * con_o.x - gdy * con_o.y;
        const double dG_ddely = -gdy * con_o.z - gdx * con_o.y;
        g.mean2D[3 * size_t(id) + 0] += dL_dG * dG_ddelx * ddelx_dx;
        g.mean2D[3 * size_t(id) + 1] += dL_dG * dG_ddely * ddely_dy;
        g.conic[4 * size_t(id) + 0] += -0.5 * gdx * dx * dL_dG;
        g.conic[4 * size_t(id) + 1] += -0.5 * gdx * dy * dL_dG;
        g.conic[4 * size_t(id) + 3] += -0.5 * gdy * dy * dL_dG;
        g.opacity[id] += b.G * dL_dalpha;
      }
    }
  }
  return g;
}

int removeAmbiguousDecisions(GaussianScene &s) {
  int adjustments = 0;
  for (int round = 0; round < 50; ++round) {
    const GaussianForwardReference f = gaussianForwardReference(s);
    if (f.ambiguous.empty())
      return adjustments;
    for (int id : f.ambiguous)
      s.conic_opacity[id].w *= 0.999f;
    adjustments += int(f.ambiguous.size());
  }
  return adjustments;
}

} // namespace dwk
