#include "cubemap_reference.h"

namespace dwk {
namespace {

// Both cubemap integrals: out(texel) = sum over input texels of
// weight * cubemap; the gradient is the transpose.
template <typename Weight>
CubemapReference cubemapIntegral(const CubemapScene &s, int out_channels,
                                 Weight weight) {
  const int N = s.N;
  CubemapReference r;
  r.out.assign(size_t(6) * N * N * out_channels, 0);
  r.gradCubemap.assign(size_t(6) * N * N * 3, 0);
  for (int pz = 0; pz < 6; ++pz)
    for (int py = 0; py < N; ++py)
      for (int px = 0; px < N; ++px) {
        const Vec3<double> out_dir = cube_to_dir<double>(px, py, pz, N);
        const size_t o = (size_t(pz) * N + py) * N + px;
        for (int s_ = 0; s_ < 6; ++s_)
          for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) {
              const Vec3<double> L = cube_to_dir<double>(x, y, s_, N);
              double w;
              if (!weight(out_dir, L, x, y, w))
                continue;
              const size_t i = (size_t(s_) * N + y) * N + x;
              for (int c = 0; c < 3; ++c) {
                r.out[o * out_channels + c] += s.cubemap[i * 3 + c] * w;
                r.gradCubemap[i * 3 + c] += s.gradIn[o * 3 + c] * w;
              }
              if (out_channels == 4)
                r.out[o * 4 + 3] += w;
            }
      }
  return r;
}

} // namespace

CubemapReference diffuseCubemapReference(const CubemapScene &s) {
  return cubemapIntegral(s, 3,
                         [&](const Vec3<double> &Nrm, const Vec3<double> &L,
                             int x, int y, double &w) {
                           w = diffuseWeight<double>(Nrm, L, x, y, s.N);
                           return true;
                         });
}

CubemapReference specularCubemapReference(const CubemapScene &s) {
  const double alpha = double(s.roughness) * s.roughness;
  const double alphaSqr = alpha * alpha;
  return cubemapIntegral(s, 4,
                         [&](const Vec3<double> &VNR, const Vec3<double> &L,
                             int x, int y, double &w) {
                           if (dot(L, VNR) < double(s.costheta_cutoff))
                             return false;
                           w = specularWeight<double>(L, VNR, alphaSqr, x, y,
                                                      s.N);
                           return true;
                         });
}

TextureReference textureBilinearReference(const TextureScene &s) {
  TextureKernelParams p{};
  p.channels = s.channels;
  p.texWidth = s.texWidth;
  p.texHeight = s.texHeight;
  const int C = s.channels;
  TextureReference r;
  r.out.assign(size_t(s.imgWidth) * s.imgHeight * C, 0);
  r.gradTex.assign(s.tex.size(), 0);
  r.gradUV.assign(s.uv.size(), 0);
  for (size_t pidx = 0; pidx < size_t(s.imgWidth) * s.imgHeight; ++pidx) {
    int tc[4];
    double fu, fv;
    indexTextureLinear<double>(p, s.uv[2 * pidx], s.uv[2 * pidx + 1], tc, fu,
                               fv);
    const double w[4] = {(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv,
                         fu * fv};
    double gu = 0, gv = 0;
    for (int i = 0; i < C; ++i) {
      const double dy = s.dy[pidx * C + i];
      double a[4];
      for (int k = 0; k < 4; ++k) {
        a[k] = tc[k] >= 0 ? s.tex[tc[k] + i] : 0.0;
        r.out[pidx * C + i] += w[k] * a[k];
        if (tc[k] >= 0)
          r.gradTex[tc[k] + i] += dy * w[k];
      }
      gu += dy * ((a[1] - a[0]) * (1 - fv) + (a[3] - a[2]) * fv);
      gv += dy * ((a[2] - a[0]) * (1 - fu) + (a[3] - a[1]) * fu);
    }
    r.gradUV[2 * pidx] = gu * s.texWidth;
    r.gradUV[2 * pidx + 1] = gv * s.texHeight;
  }
  return r;
}

} // namespace dwk
