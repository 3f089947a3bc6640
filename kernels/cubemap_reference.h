// Float64 CPU references of the cubemap and texture workloads.
#pragma once

#include "cubemap.h"

namespace dwk {

struct CubemapReference {
  std::vector<double> out;         // forward output
  std::vector<double> gradCubemap; // 6 * N * N * 3
};
CubemapReference diffuseCubemapReference(const CubemapScene &scene);
// out: colour sum (3) and weight sum (1) per texel.
CubemapReference specularCubemapReference(const CubemapScene &scene);

struct TextureReference {
  std::vector<double> out, gradTex, gradUV;
};
TextureReference textureBilinearReference(const TextureScene &scene);

} // namespace dwk
