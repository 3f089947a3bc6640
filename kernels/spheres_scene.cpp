// Deterministic sphere scenes (see README.md for the presets).
#include "random.h"
#include "spheres.h"

#include <algorithm>
#include <cmath>

namespace dwk {

const std::vector<SpherePreset> &spherePresets() {
  static const std::vector<SpherePreset> presets = {
      {"tiny", 400, 150, 100, 3, 8.0, 0.5, false,
       "float64 CPU reference checks; image not a multiple of 16"},
      {"tiny-ortho", 400, 150, 100, 3, 8.0, 0.5, true,
       "tiny with an orthogonal camera"},
      {"small", 20000, 512, 512, 3, 8.0, 0.5, false,
       "20k spheres at 512x512, ~12 discs deep"},
      {"large", 200000, 1024, 1024, 3, 8.0, 0.5, false,
       "200k spheres at 1024x1024, ~30 discs deep"},
      {"large-ortho", 200000, 1024, 1024, 3, 8.0, 0.5, true,
       "large with an orthogonal camera (no axis_z gradient)"},
  };
  return presets;
}

const SpherePreset *findSpherePreset(const std::string &name) {
  for (const SpherePreset &p : spherePresets())
    if (name == p.name)
      return &p;
  return nullptr;
}

SphereScene makeSphereScene(const SpherePreset &preset, uint64_t seed) {
  SphereScene s;
  s.preset = preset.name;
  s.W = preset.W;
  s.H = preset.H;
  s.P = preset.P;
  s.n_channels = preset.n_channels;
  Rng rng(seed ^ 0xBB67AE8584CAA73Bull);
  // A camera slightly rotated about the y axis, away from the origin, so that
  // no gradient term vanishes by symmetry.
  const double angle = 0.1, c = std::cos(angle), sn = std::sin(angle);
  SphereCamera &cam = s.cam;
  cam.pos = make_float3(0.3f, -0.2f, 0.1f);
  cam.axis_x = make_float3(float(c), 0.f, float(-sn));
  cam.axis_y = make_float3(0.f, 1.f, 0.f);
  cam.axis_z = make_float3(float(sn), 0.f, float(c));
  cam.orthogonal = preset.orthogonal;
  cam.focal = preset.orthogonal ? float(s.W) / 8.f : float(s.W);
  cam.cx = 0.5f * s.W;
  cam.cy = 0.5f * s.H;
  for (int i = 0; i < s.P; ++i) {
    // Place in camera coordinates from a disc in pixels, then map to world.
    const double u = rng.uniform(-0.05, 1.05) * s.W;
    const double v = rng.uniform(-0.05, 1.05) * s.H;
    const double z = rng.uniform(4.0, 12.0);
    const double r_px =
        std::clamp(preset.median_radius_px *
                       std::exp(preset.radius_log_sigma * rng.normal()),
                   1.5, 60.0);
    double qx, qy, r;
    if (cam.orthogonal) {
      qx = (u - cam.cx) / cam.focal;
      qy = (v - cam.cy) / cam.focal;
      r = r_px / cam.focal;
    } else {
      qx = (u - cam.cx) * z / cam.focal;
      qy = (v - cam.cy) * z / cam.focal;
      r = r_px * z / cam.focal;
    }
    const double wx =
        cam.pos.x + qx * cam.axis_x.x + qy * cam.axis_y.x + z * cam.axis_z.x;
    const double wy =
        cam.pos.y + qx * cam.axis_x.y + qy * cam.axis_y.y + z * cam.axis_z.y;
    const double wz =
        cam.pos.z + qx * cam.axis_x.z + qy * cam.axis_y.z + z * cam.axis_z.z;
    s.pos.push_back(make_float3(float(wx), float(wy), float(wz)));
    s.rad.push_back(float(r));
    s.opy.push_back(float(rng.uniform(0.3, 0.95)));
    for (int ch = 0; ch < s.n_channels; ++ch)
      s.col.push_back(float(rng.uniform()));
  }
  for (int ch = 0; ch < s.n_channels; ++ch)
    s.bg.push_back(float(rng.uniform()));
  s.grad_im.resize(size_t(s.W) * s.H * s.n_channels);
  for (float &g : s.grad_im)
    g = float(rng.uniform(-1, 1));
  return s;
}

} // namespace dwk
