// Launchers of the 3DGS backward variants kept as distwar-rewrite inputs for
// the patterns of docs/KERNELS.md section 1 that the reference kernel does not
// have (a split group, already hand-reduced code, the per-Gaussian layout).
// They are not rewritten by the build and not in the variant table: the GPU
// tests check them against the plain kernel.
#pragma once

#include "gaussians.h"

namespace DISTWAR_VARIANT_NS {
namespace split {
// Geometry atomics only where alpha >= min_geometry_alpha.
void gaussianBackward(const ::dwk::GaussianBackwardArgs &args,
                      float min_geometry_alpha, cudaStream_t stream);
} // namespace split
namespace reduced {
void gaussianBackward(const ::dwk::GaussianBackwardArgs &args,
                      cudaStream_t stream);
} // namespace reduced
namespace per_gaussian {
// One thread per Gaussian: `num_gaussians` Gaussians, ids 0..P-1.
void gaussianBackward(const ::dwk::GaussianBackwardArgs &args,
                      int num_gaussians, const int *radii, cudaStream_t stream);
} // namespace per_gaussian
} // namespace DISTWAR_VARIANT_NS
