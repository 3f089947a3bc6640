// Float64 CPU reference of the 3DGS render stage (forward and backward).
#pragma once

#include "gaussians.h"

namespace dwk {

struct GaussianForwardReference {
  std::vector<double> final_T, color, invdepth; // color: planar, C * H * W
  std::vector<uint32_t> n_contrib;
  // Gaussians whose alpha or transmittance lands within a relative 1e-4 of
  // a threshold (1/255, 1e-4) at some pixel: float and float64 may decide
  // differently there.
  std::vector<int> ambiguous;
};

struct GaussianGradientReference {
  std::vector<double> mean2D;    // 3 per Gaussian (.z stays 0)
  std::vector<double> conic;     // 4 per Gaussian (.z stays 0)
  std::vector<double> opacity;   // 1 per Gaussian
  std::vector<double> colors;    // NUM_CHANNELS per Gaussian
  std::vector<double> invdepths; // 1 per Gaussian
};

GaussianForwardReference gaussianForwardReference(const GaussianScene &scene);
GaussianGradientReference
gaussianBackwardReference(const GaussianScene &scene,
                          const GaussianForwardReference &forward,
                          bool with_depth);

// Lowers the opacity of ambiguous Gaussians slightly until no decision is
// ambiguous, so that the float64 reference and the float kernels take the
// same branches. Returns the number of adjustments.
int removeAmbiguousDecisions(GaussianScene &scene);

} // namespace dwk
