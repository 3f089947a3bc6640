// Whether a 2D Gaussian can blend into any pixel of a rectangle, decided once
// per Gaussian and group of pixels instead of once per pixel. The 3DGS render
// skips a Gaussian at a pixel where power > 0 or opacity * exp(power) <
// 1/255; a tile's list holds every Gaussian whose 3-sigma square touches the
// tile, and most of them blend into few of its pixels (faint splats, small
// splats at the tile's corners). A group that drops the Gaussians it cannot
// see walks a shorter list and computes what the original computes: the
// dropped pairs are pairs the original skips.
#pragma once

#include "dwk_common.h"

#include <cmath>

namespace dwk {

// The ellipse test: Gaussian g (centre mx, my; conic a, b, c as
// conic_opacity's x, y, z) and the pixel centres p with x0 <= p.x <= x1,
// y0 <= p.y <= y1. Where this returns false, every such pixel skips g in the
// original's arithmetic; true promises nothing (the pixels test g as before).
// `cutoff` is splatCutoff(opacity).
//
// The original skips g at d = m - p when q(d) = a dx^2 + 2 b dx dy + c dy^2
// exceeds 2 ln(255 o). Over the rectangle, q is least at d = 0 if the
// rectangle holds the centre, else on an edge, where it is a parabola in one
// variable: least at its vertex clamped to the edge when its leading
// coefficient (c on an edge of fixed dx, a on one of fixed dy) is positive.
// Float rounding in the original's power and here is under 1e-6 of the
// terms' magnitude; the margin allows 1e-5 of it, and 1e-3 for exp and log.
// NaN or infinite inputs, or a conic not positive on both axes: kept.
inline DWK_HD float splatCutoff(float o) { return 2.0f * logf(255.0f * o); }

inline DWK_HD bool splatMayBlend(float mx, float my, float a, float b, float c,
                                 float cutoff, float x0, float x1, float y0,
                                 float y1) {
  if (!(a > 0.0f && c > 0.0f && std::isfinite(mx + my + a + b + c)))
    return true;
  // d = m - p over the rectangle.
  const float dx_lo = mx - x1, dx_hi = mx - x0;
  const float dy_lo = my - y1, dy_hi = my - y0;
  const auto q = [&](float dx, float dy) {
    return a * dx * dx + 2.0f * b * dx * dy + c * dy * dy;
  };
  const auto clamp = [](float v, float lo, float hi) {
    return fminf(fmaxf(v, lo), hi);
  };
  float least = 0.0f;
  if (dx_lo > 0.0f || dx_hi < 0.0f || dy_lo > 0.0f || dy_hi < 0.0f) {
    least = fminf(fminf(q(dx_lo, clamp(-b * dx_lo / c, dy_lo, dy_hi)),
                        q(dx_hi, clamp(-b * dx_hi / c, dy_lo, dy_hi))),
                  fminf(q(clamp(-b * dy_lo / a, dx_lo, dx_hi), dy_lo),
                        q(clamp(-b * dy_hi / a, dx_lo, dx_hi), dy_hi)));
  }
  const float dx = fmaxf(fabsf(dx_lo), fabsf(dx_hi));
  const float dy = fmaxf(fabsf(dy_lo), fabsf(dy_hi));
  const float magnitude = a * dx * dx + 2.0f * fabsf(b) * dx * dy + c * dy * dy;
  // Written so that a NaN cutoff (o < 0 or NaN) keeps g.
  return !(least > cutoff + 1e-5f * magnitude + 1e-3f);
}

// The box test: the pixel centres where g may blend lie in [x0, x1] x
// [y0, y1]; a group of pixels outside the box skips g. Cheaper per group
// than the ellipse test (four comparisons), looser for slanted Gaussians.
struct SplatBox {
  float x0, x1, y0, y1;
};

inline DWK_HD float roundedDown(double v) {
#if defined(__CUDA_ARCH__)
  return __double2float_rd(v);
#else
  const float f = float(v);
  return double(f) > v ? std::nextafter(f, -INFINITY) : f;
#endif
}

inline DWK_HD float roundedUp(double v) {
#if defined(__CUDA_ARCH__)
  return __double2float_ru(v);
#else
  const float f = float(v);
  return double(f) < v ? std::nextafter(f, INFINITY) : f;
#endif
}

// The bounding box of the ellipse q(d) <= reach, in double: reach is the
// cutoff widened for the original's float rounding, which is under 1.2e-6
// of the terms' magnitude, itself at most (a + c)^2 / det times q. Kept
// whole (an infinite box) where that ratio passes 1e5, the conic is not
// positive definite or an input is NaN or infinite; empty where opacity <= 0.
inline DWK_HD SplatBox splatBlendBox(float mx, float my, float a, float b,
                                     float c, float o) {
  const SplatBox all = {-INFINITY, INFINITY, -INFINITY, INFINITY};
  const SplatBox none = {INFINITY, -INFINITY, INFINITY, -INFINITY};
  if (o <= 0.0f)
    return none;
  const double A = a, B = b, C = c;
  const double det = A * C - B * B;
  if (!(a > 0.0f && c > 0.0f && det > 0.0 && o < INFINITY &&
        std::isfinite(mx + my + a + b + c)))
    return all;
  const double spread = (A + C) * (A + C) / det;
  if (!(spread <= 1e5))
    return all;
  const double cutoff = 2.0 * log(255.0 * double(o));
  const double reach = cutoff + fabs(cutoff) * 1e-5 * spread + 1e-3;
  if (reach < 0.0)
    return none;
  const double hx = sqrt(reach * C / det), hy = sqrt(reach * A / det);
  return {roundedDown(mx - hx), roundedUp(mx + hx), roundedDown(my - hy),
          roundedUp(my + hy)};
}

inline DWK_HD bool boxMeets(const SplatBox &g, float x0, float x1, float y0,
                            float y1) {
  return g.x0 <= x1 && x0 <= g.x1 && g.y0 <= y1 && y0 <= g.y1;
}

} // namespace dwk
