// splatMayBlend against the original's per-pixel test: a Gaussian it drops
// must be skipped by every pixel of the rectangle, whichever way the
// compiler rounds the original's power (with or without fused multiply-adds),
// and it must drop most Gaussians that no pixel sees, or the culled kernels
// would walk the whole list.
#include "random.h"
#include "splat_cull.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dwk {
namespace {

struct Splat {
  float mx, my, a, b, c, o;
};

struct Rect {
  float x0, x1, y0, y1;
};

// The original's decision at pixel (px, py): power as written, and as nvcc
// contracts it into fused multiply-adds.
bool pixelBlends(const Splat &s, float px, float py) {
  const float dx = s.mx - px, dy = s.my - py;
  const float plain = -0.5f * (s.a * dx * dx + s.c * dy * dy) - s.b * dx * dy;
  const float fused =
      std::fma(-s.b * dx, dy, -0.5f * std::fma(s.a * dx, dx, s.c * dy * dy));
  for (float power : {plain, fused}) {
    if (power > 0.0f)
      continue;
    const float alpha = std::min(0.99f, s.o * std::exp(power));
    if (!(alpha < 1.0f / 255.0f))
      return true;
  }
  return false;
}

bool anyPixelBlends(const Splat &s, const Rect &r) {
  for (float y = r.y0; y <= r.y1; y += 1.0f)
    for (float x = r.x0; x <= r.x1; x += 1.0f)
      if (pixelBlends(s, x, y))
        return true;
  return false;
}

bool ellipseMayBlend(const Splat &s, const Rect &r) {
  return splatMayBlend(s.mx, s.my, s.a, s.b, s.c, splatCutoff(s.o), r.x0, r.x1,
                       r.y0, r.y1);
}

bool boxMayBlend(const Splat &s, const Rect &r) {
  return boxMeets(splatBlendBox(s.mx, s.my, s.a, s.b, s.c, s.o), r.x0, r.x1,
                  r.y0, r.y1);
}

// Each test, with the share of unseen Gaussians it must drop at least.
struct Decider {
  const char *name;
  bool (*mayBlend)(const Splat &, const Rect &);
  double drops;
};
const Decider kDeciders[] = {{"ellipse", ellipseMayBlend, 0.95},
                             {"box", boxMayBlend, 0.75}};

struct Conic {
  double a, b, c;
};

// A 3DGS screen-space Gaussian's conic: the inverse of the covariance of the
// given principal sigmas and angle plus the 0.3 low-pass filter.
Conic conicOf(double major, double minor, double theta) {
  const double cs = std::cos(theta), sn = std::sin(theta);
  const double l1 = major * major, l2 = minor * minor;
  const double ca = cs * cs * l1 + sn * sn * l2 + 0.3;
  const double cb = cs * sn * (l1 - l2);
  const double cc = sn * sn * l1 + cs * cs * l2 + 0.3;
  const double det = ca * cc - cb * cb;
  return {cc / det, -cb / det, ca / det};
}

Splat splatOf(double x, double y, double major, double minor, double theta,
              double opacity) {
  const Conic q = conicOf(major, minor, theta);
  return {float(x),   float(y),   float(q.a),
          float(q.b), float(q.c), float(opacity)};
}

// Random Gaussians of every size from a pixel to the screen, anisotropy up
// to 1000:1, opacities from invisible to opaque, each near an 8x4 patch.
Splat randomSplat(Rng &rng, Rect &patch) {
  const double major = std::exp(rng.uniform(std::log(0.2), std::log(300.0)));
  const double minor = major * std::exp(rng.uniform(std::log(1e-3), 0.0));
  const double opacity =
      rng.uniform() < 0.2 ? rng.uniform(0.0, 0.01) : rng.uniform(0.0, 1.0);
  const double reach = 3.0 * major + 12.0;
  const double x = rng.uniform(-1e4, 1e4), y = rng.uniform(-1e4, 1e4);
  const float px = float(std::floor(x + rng.uniform(-reach, reach)));
  const float py = float(std::floor(y + rng.uniform(-reach, reach)));
  patch = {px, px + 7.0f, py, py + 3.0f};
  return splatOf(x, y, major, minor, rng.uniform(0.0, 3.141592653589793),
                 opacity);
}

TEST(SplatCull, NeverDropsWhatAPixelBlends) {
  for (const Decider &test : kDeciders) {
    Rng rng(2026);
    int seen = 0, unseen = 0, unseenDropped = 0;
    for (int i = 0; i < 200000; ++i) {
      Rect patch;
      const Splat s = randomSplat(rng, patch);
      if (anyPixelBlends(s, patch)) {
        ++seen;
        ASSERT_TRUE(test.mayBlend(s, patch))
            << test.name << " dropped a Gaussian a pixel blends: centre "
            << s.mx << ", " << s.my << " conic " << s.a << ", " << s.b << ", "
            << s.c << " opacity " << s.o << " patch " << patch.x0 << ", "
            << patch.y0;
      } else {
        ++unseen;
        unseenDropped += !test.mayBlend(s, patch);
      }
    }
    EXPECT_GT(seen, 10000);
    // Conservative by a margin only: it drops most Gaussians no pixel sees.
    EXPECT_GT(unseenDropped, test.drops * unseen)
        << test.name << ": " << unseenDropped << " of " << unseen
        << " unseen Gaussians dropped";
  }
}

// Gaussians whose blending edge passes within a millionth of its distance of
// the patch's corner, where only the margin decides: every shape, thin ones
// included (their power is a difference of large terms), far off-centre.
TEST(SplatCull, KeepsGaussiansThatReachACornerByAHair) {
  Rng rng(7);
  int reached = 0, missed = 0;
  for (int i = 0; i < 40000; ++i) {
    const double major = std::exp(rng.uniform(std::log(0.5), std::log(300.0)));
    const double minor = major * std::exp(rng.uniform(std::log(1e-3), 0.0));
    const double theta = rng.uniform(0.0, 3.141592653589793);
    const double opacity = rng.uniform(0.005, 0.99);
    const Conic q = conicOf(major, minor, theta);
    // Along direction u the edge, opacity * exp(-q(d) / 2) = 1/255, lies at
    // d = u sqrt(cutoff / q(u)); the centre is put there from the corner.
    // Half of them along the major axis, where the edge is farthest.
    const double angle =
        i % 2 ? rng.uniform(0.0, 6.283185307179586)
              : theta + 3.141592653589793 * (i % 4 == 0) + 1e-3 * rng.normal();
    const double ux = std::cos(angle), uy = std::sin(angle);
    const double cutoff = 2.0 * std::log(255.0 * opacity);
    const double along = std::sqrt(
        cutoff / (q.a * ux * ux + 2.0 * q.b * ux * uy + q.c * uy * uy));
    const double dist = along * (1.0 + rng.uniform(-1e-6, 1e-6));
    const double cx = 1000.0 + dist * ux, cy = 2000.0 + dist * uy;
    const Splat s = {float(cx),  float(cy),  float(q.a),
                     float(q.b), float(q.c), float(opacity)};
    // A patch with the corner (1000, 2000), on the side away from the
    // centre. (For a thin Gaussian another patch pixel may be nearer the
    // edge; the test holds whichever pixel blends.)
    const Rect patch = {
        cx > 1000.0 ? 993.0f : 1000.0f, cx > 1000.0 ? 1000.0f : 1007.0f,
        cy > 2000.0 ? 1997.0f : 2000.0f, cy > 2000.0 ? 2000.0f : 2003.0f};
    if (anyPixelBlends(s, patch)) {
      ++reached;
      for (const Decider &test : kDeciders)
        ASSERT_TRUE(test.mayBlend(s, patch))
            << test.name << ": major " << major << " minor " << minor
            << " theta " << theta << " opacity " << opacity << " at " << cx
            << ", " << cy;
    } else {
      ++missed;
    }
  }
  EXPECT_GT(reached, 5000);
  EXPECT_GT(missed, 5000);
}

TEST(SplatCull, DropsFarAndInvisibleGaussians) {
  const Rect patch = {0.0f, 7.0f, 0.0f, 3.0f};
  const auto mayBlend = ellipseMayBlend;
  EXPECT_FALSE(mayBlend(splatOf(100.0, 100.0, 3.0, 3.0, 0.0, 0.9), patch));
  // Too faint to reach 1/255 even at its centre, which lies in the patch.
  EXPECT_FALSE(mayBlend(splatOf(3.0, 1.0, 30.0, 30.0, 0.0, 0.003), patch));
  EXPECT_FALSE(mayBlend(splatOf(3.0, 1.0, 30.0, 30.0, 0.0, 0.0), patch));
  EXPECT_TRUE(mayBlend(splatOf(3.0, 1.0, 30.0, 30.0, 0.0, 0.005), patch));
  // A long thin Gaussian crossing the patch diagonally, centre far away.
  EXPECT_TRUE(mayBlend(splatOf(-60.0, -60.0, 60.0, 0.6, 0.785398, 0.9), patch));
  EXPECT_FALSE(
      mayBlend(splatOf(-60.0, -60.0, 60.0, 0.6, -0.785398, 0.9), patch));
  // The box drops the far and the invisible, not the slanted one beside it.
  for (float o : {0.003f, 0.0f, -0.5f})
    EXPECT_FALSE(boxMayBlend(splatOf(3.0, 1.0, 30.0, 30.0, 0.0, o), patch));
  EXPECT_FALSE(boxMayBlend(splatOf(100.0, 100.0, 3.0, 3.0, 0.0, 0.9), patch));
  EXPECT_TRUE(
      boxMayBlend(splatOf(-60.0, -60.0, 60.0, 0.6, -0.785398, 0.9), patch));
}

TEST(SplatCull, KeepsWhatItCannotReasonAbout) {
  const Rect patch = {0.0f, 7.0f, 0.0f, 3.0f};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const Decider &test : kDeciders) {
    // The original blends a NaN opacity as 0.99 (min(0.99, NaN)).
    EXPECT_TRUE(test.mayBlend({500, 500, 1, 0, 1, nan}, patch)) << test.name;
    EXPECT_TRUE(test.mayBlend({500, 500, nan, 0, 1, 0.9f}, patch)) << test.name;
    EXPECT_TRUE(test.mayBlend({500, 500, 1, nan, 1, 0.9f}, patch)) << test.name;
    EXPECT_TRUE(test.mayBlend({nan, 500, 1, 0, 1, 0.9f}, patch)) << test.name;
    EXPECT_TRUE(test.mayBlend({500, 500, 1, 0, inf, 0.9f}, patch)) << test.name;
    EXPECT_TRUE(test.mayBlend({500, 500, -1, 0, 1, 0.9f}, patch)) << test.name;
    EXPECT_TRUE(test.mayBlend({500, 500, 1, 0, 0, 0.9f}, patch)) << test.name;
    EXPECT_TRUE(test.mayBlend({500, 500, 1, 0, 1, inf}, patch)) << test.name;
    // Not positive definite: a saddle, its centre in the patch.
    EXPECT_TRUE(test.mayBlend({3, 1.5f, 1, 2, 1, 0.9f}, patch)) << test.name;
  }
  // A negative opacity never blends; the ellipse test keeps it (NaN cutoff).
  EXPECT_TRUE(ellipseMayBlend({500, 500, 1, 0, 1, -0.5f}, patch));
}

} // namespace
} // namespace dwk
