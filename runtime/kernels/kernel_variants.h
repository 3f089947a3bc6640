// Every compiled variant of the backward kernels, as a table. The list comes
// from the build (distwar_kernel_variants.inc, one
// DISTWAR_KERNEL_VARIANT(namespace, name) per variant; see CMakeLists.txt).
#pragma once

#include "cubemap.h"
#include "gaussians.h"
#include "spheres.h"

#include <cstring>
#include <string>
#include <vector>

#define DISTWAR_KERNEL_VARIANT(ns, name)                                       \
  DWK_DECLARE_GAUSSIAN_BACKWARD(ns)                                            \
  DWK_DECLARE_SPHERE_BACKWARD(ns)                                              \
  DWK_DECLARE_CUBEMAP_BACKWARD(ns)
#include "distwar_kernel_variants.inc"
#undef DISTWAR_KERNEL_VARIANT

namespace dwk {

struct BackwardVariant {
  const char *name;
  void (*gaussian)(const GaussianBackwardArgs &, cudaStream_t);
  void (*sphere)(const SphereBackwardArgs &, cudaStream_t);
  void (*diffuse)(const DiffuseCubemapKernelParams &, cudaStream_t);
  void (*specular)(const SpecularCubemapKernelParams &, cudaStream_t);
  void (*texture)(const TextureKernelParams &, cudaStream_t);

  bool is(const char *n) const { return std::strcmp(name, n) == 0; }
  // Produced by distwar-rewrite (reads per-site thresholds).
  bool rewritten() const { return !is("plain") && !is("counted"); }
  // Gradients are not computed (the no-atomic floor).
  bool computesGradients() const { return !is("floor"); }
  // Reads thresholds that change its work (0..33).
  bool tunable() const { return rewritten() && !is("floor"); }
};

inline const std::vector<BackwardVariant> &backwardVariants() {
  static const std::vector<BackwardVariant> variants = {
#define DISTWAR_KERNEL_VARIANT(ns, name)                                       \
  {#name,                                                                      \
   &ns::gaussianBackward,                                                      \
   &ns::sphereBackward,                                                        \
   &ns::diffuseCubemapBackward,                                                \
   &ns::specularCubemapBackward,                                               \
   &ns::textureGradBilinear},
#include "distwar_kernel_variants.inc"
#undef DISTWAR_KERNEL_VARIANT
  };
  return variants;
}

inline const BackwardVariant *findBackwardVariant(const std::string &name) {
  for (const BackwardVariant &v : backwardVariants())
    if (name == v.name)
      return &v;
  return nullptr;
}

} // namespace dwk
