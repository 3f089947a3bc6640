// Float64 CPU reference of the sphere renderer (forward and backward).
#pragma once

#include "spheres.h"

namespace dwk {

struct SphereForwardReference {
  std::vector<int> ids;      // H * W * PULSAR_K
  std::vector<double> image; // H * W * n_channels
  // Spheres whose disc edge passes within a relative 1e-4 of a pixel centre:
  // float and float64 may disagree on coverage there.
  std::vector<int> ambiguous;
};

struct SphereGradientReference {
  std::vector<double> pos;      // 3 per sphere
  std::vector<double> rad, opy; // 1 per sphere
  std::vector<double> col;      // n_channels per sphere
  std::vector<double> cam; // 12 per sphere: cam_pos, axis_x, axis_y, axis_z
  std::vector<long long> n_hits;
};

SphereForwardReference sphereForwardReference(const SphereScene &scene);
SphereGradientReference
sphereBackwardReference(const SphereScene &scene,
                        const SphereForwardReference &forward);
// Grows ambiguous spheres slightly until no coverage test is ambiguous.
int removeAmbiguousDecisions(SphereScene &scene);

} // namespace dwk
