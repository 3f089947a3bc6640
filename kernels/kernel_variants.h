// Every compiled variant of the backward kernels, as a table. The list comes
// from the build (distwar_kernel_variants.inc; see CMakeLists.txt):
//   DISTWAR_KERNEL_VARIANT(namespace, name)   every workload, same sources
//   DISTWAR_KERNEL_HAND_GAUSSIAN_VARIANT(namespace, "name", launcher, setter)
//     a hand-written Gaussian backward (for comparison only, not tool
//     output) with its own threshold setter; no other workload.
// The hand-written block-level and coalescing variants of the sphere and
// texture backwards (spheres_backward_block.cu, cubemap_backward_block.cu)
// follow the generated list: not tool output, no threshold.
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
#define DISTWAR_KERNEL_HAND_GAUSSIAN_VARIANT(ns, name, launcher, setter)       \
  namespace ns {                                                               \
  void launcher(const ::dwk::GaussianBackwardArgs &args, cudaStream_t stream); \
  void setter(int threshold);                                                  \
  }
#include "distwar_kernel_variants.inc"
#undef DISTWAR_KERNEL_VARIANT
#undef DISTWAR_KERNEL_HAND_GAUSSIAN_VARIANT

namespace dwk_hand_block {
void sphereBackward(const ::dwk::SphereBackwardArgs &args, cudaStream_t stream);
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream);
} // namespace dwk_hand_block
namespace dwk_hand_block_warp {
void sphereBackward(const ::dwk::SphereBackwardArgs &args, cudaStream_t stream);
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream);
} // namespace dwk_hand_block_warp
namespace dwk_hand_block_warp4 {
void sphereBackward(const ::dwk::SphereBackwardArgs &args, cudaStream_t stream);
} // namespace dwk_hand_block_warp4
namespace dwk_hand_block_warp4_vec {
void sphereBackward(const ::dwk::SphereBackwardArgs &args, cudaStream_t stream);
} // namespace dwk_hand_block_warp4_vec
namespace dwk_hand_block_quad {
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream);
} // namespace dwk_hand_block_quad
namespace dwk_hand_coalesce {
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream);
} // namespace dwk_hand_coalesce

namespace dwk {

struct BackwardVariant {
  const char *name;
  // nullptr where the variant does not exist for that workload.
  void (*gaussian)(const GaussianBackwardArgs &, cudaStream_t);
  void (*sphere)(const SphereBackwardArgs &, cudaStream_t);
  void (*diffuse)(const DiffuseCubemapKernelParams &, cudaStream_t);
  void (*specular)(const SpecularCubemapKernelParams &, cudaStream_t);
  void (*texture)(const TextureKernelParams &, cudaStream_t);
  // Hand-written variants: sets their own threshold (0..33). nullptr for the
  // rest (the rewritten ones read the runtime's site tables).
  void (*setOwnThreshold)(int);
  // Hand-written variants without a threshold: how they reduce (the label
  // says it). nullptr for the rest.
  const char *style = nullptr;

  bool is(const char *n) const { return std::strcmp(name, n) == 0; }
  // Written by hand for comparison, not produced by distwar-rewrite.
  bool handWritten() const {
    return setOwnThreshold != nullptr || style != nullptr;
  }
  // Produced by distwar-rewrite (reads per-site thresholds).
  bool rewritten() const {
    return !handWritten() && !is("plain") && !is("counted");
  }
  // Gradients are not computed (the no-atomic floor).
  bool computesGradients() const { return !is("floor"); }
  // Reads thresholds that change its work (0..33).
  bool tunable() const {
    return setOwnThreshold != nullptr || (rewritten() && !is("floor"));
  }
  // What benchmark output calls it.
  std::string label() const {
    if (style)
      return std::string(name) + " (hand-written, " + style +
             ", not tool output)";
    return handWritten() ? std::string(name) +
                               " (hand-written, DISTWAR paper style, not tool "
                               "output)"
                         : std::string(name);
  }
};

inline const std::vector<BackwardVariant> &backwardVariants() {
  static const std::vector<BackwardVariant> variants = {
#define DISTWAR_KERNEL_VARIANT(ns, name)                                       \
  {#name,                                                                      \
   &ns::gaussianBackward,                                                      \
   &ns::sphereBackward,                                                        \
   &ns::diffuseCubemapBackward,                                                \
   &ns::specularCubemapBackward,                                               \
   &ns::textureGradBilinear,                                                   \
   nullptr},
#define DISTWAR_KERNEL_HAND_GAUSSIAN_VARIANT(ns, name, launcher, setter)       \
  {name, &ns::launcher, nullptr, nullptr, nullptr, nullptr, &ns::setter},
#include "distwar_kernel_variants.inc"
#undef DISTWAR_KERNEL_VARIANT
#undef DISTWAR_KERNEL_HAND_GAUSSIAN_VARIANT
      {"hand-coalesce", nullptr, nullptr, nullptr, nullptr,
       &dwk_hand_coalesce::textureGradBilinear, nullptr,
       "nvdiffrast-style: match-any, a shared-memory slot per leader"},
      {"hand-block", nullptr, &dwk_hand_block::sphereBackward, nullptr, nullptr,
       &dwk_hand_block::textureGradBilinear, nullptr,
       "block table in shared memory, per-lane adds"},
      {"hand-block-warp", nullptr, &dwk_hand_block_warp::sphereBackward,
       nullptr, nullptr, &dwk_hand_block_warp::textureGradBilinear, nullptr,
       "warp match-any sums, then the block table"},
      {"hand-block-warp4", nullptr, &dwk_hand_block_warp4::sphereBackward,
       nullptr, nullptr, nullptr, nullptr,
       "as hand-block-warp at 4 blocks per SM (64 registers, spills)"},
      {"hand-block-warp4-vec", nullptr,
       &dwk_hand_block_warp4_vec::sphereBackward, nullptr, nullptr, nullptr,
       nullptr,
       "as hand-block-warp4, the camera gradients flushed as float4 atomics"},
      {"hand-block-quad", nullptr, nullptr, nullptr, nullptr,
       &dwk_hand_block_quad::textureGradBilinear, nullptr,
       "one warp match per base texel for the four corners, then the block "
       "table"},
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
