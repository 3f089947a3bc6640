// Backward passes of nvdiffrec's cubemap filtering and nvdiffrast's bilinear
// texture lookup in plain-atomic form, the input of distwar-rewrite.
#include "cubemap.h"

namespace DISTWAR_VARIANT_NS {

using ::dwk::Vec3;

// Each thread is one output texel; every thread walks every input texel in
// the same order: the key is uniform across the warp.
__global__ void DiffuseCubemapBwdKernel(::dwk::DiffuseCubemapKernelParams p) {
  // Calculate pixel position.
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  int pz = blockIdx.z;
  if (px >= p.gridSize.x || py >= p.gridSize.y || pz >= p.gridSize.z)
    return;

  int Npx = p.cubemap.dims[1];
  Vec3<float> N = ::dwk::cube_to_dir<float>(px, py, pz, Npx);
  const float *g = p.gradIn + ((pz * Npx + py) * Npx + px) * 3;
  Vec3<float> grad = {g[0], g[1], g[2]};

  for (int s = 0; s < p.cubemap.dims[0]; ++s) {
    for (int y = 0; y < Npx; ++y) {
      for (int x = 0; x < Npx; ++x) {
        Vec3<float> L = ::dwk::cube_to_dir<float>(x, y, s, Npx);
        float w = ::dwk::diffuseWeight<float>(N, L, x, y, Npx);
        atomicAdd(p.cubemap.d_val + p.cubemap.nhwcIndexContinuous(s, y, x, 0),
                  grad.x * w);
        atomicAdd(p.cubemap.d_val + p.cubemap.nhwcIndexContinuous(s, y, x, 1),
                  grad.y * w);
        atomicAdd(p.cubemap.d_val + p.cubemap.nhwcIndexContinuous(s, y, x, 2),
                  grad.z * w);
      }
    }
  }
}

// Loop bounds come from a per-texel table and the body sits under a per-lane
// test: trip counts and keys differ across the warp.
__global__ void SpecularCubemapBwdKernel(::dwk::SpecularCubemapKernelParams p) {
  // Calculate pixel position.
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  int pz = blockIdx.z;
  if (px >= p.gridSize.x || py >= p.gridSize.y || pz >= p.gridSize.z)
    return;

  int Npx = p.cubemap.dims[1];
  Vec3<float> VNR = ::dwk::cube_to_dir<float>(px, py, pz, Npx);
  const float *g = p.gradIn + ((pz * Npx + py) * Npx + px) * 3;
  Vec3<float> grad = {g[0], g[1], g[2]};

  float alpha = p.roughness * p.roughness;
  float alphaSqr = alpha * alpha;

  for (int s = 0; s < p.cubemap.dims[0]; ++s) {
    const int *b = p.bounds + ::dwk::boundsIndex(px, py, pz, s, Npx);
    int xmin = b[0], xmax = b[1], ymin = b[2], ymax = b[3];

    if (xmin <= xmax) {
      for (int y = ymin; y <= ymax; ++y) {
        for (int x = xmin; x <= xmax; ++x) {
          Vec3<float> L = ::dwk::cube_to_dir<float>(x, y, s, Npx);
          if (::dwk::dot(L, VNR) >= p.costheta_cutoff) {
            float w = ::dwk::specularWeight<float>(L, VNR, alphaSqr, x, y, Npx);
            atomicAdd(p.cubemap.d_val +
                          p.cubemap.nhwcIndexContinuous(s, y, x, 0),
                      grad.x * w);
            atomicAdd(p.cubemap.d_val +
                          p.cubemap.nhwcIndexContinuous(s, y, x, 1),
                      grad.y * w);
            atomicAdd(p.cubemap.d_val +
                          p.cubemap.nhwcIndexContinuous(s, y, x, 2),
                      grad.z * w);
          }
        }
      }
    }
  }
}

// Bilinear texture gradient: four corners per channel, each keyed by its own
// texel and skipped outside the texture.
__global__ void TextureGradKernelBilinear(const ::dwk::TextureKernelParams p) {
  // Calculate pixel position.
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= p.imgWidth || py >= p.imgHeight)
    return;
  int pidx = px + p.imgWidth * py;

  // Texel indices and weights.
  int tc[4];
  float fu, fv;
  ::dwk::indexTextureLinear<float>(p, p.uv[2 * pidx], p.uv[2 * pidx + 1], tc,
                                   fu, fv);
  float uv011 = fu * fv;
  float uv010 = fu - uv011;
  float uv001 = fv - uv011;
  float uv000 = 1.f - fu - uv001;

  const float *pDy = p.dy + pidx * p.channels;
  float gu = 0.f;
  float gv = 0.f;
  for (int i = 0; i < p.channels; i++) {
    float dy = pDy[i];
    float a00 = tc[0] >= 0 ? p.tex[tc[0] + i] : 0.f;
    float a10 = tc[1] >= 0 ? p.tex[tc[1] + i] : 0.f;
    float a01 = tc[2] >= 0 ? p.tex[tc[2] + i] : 0.f;
    float a11 = tc[3] >= 0 ? p.tex[tc[3] + i] : 0.f;
    // Texture gradient.
    if (tc[0] >= 0)
      atomicAdd(p.gradTex + tc[0] + i, dy * uv000);
    if (tc[1] >= 0)
      atomicAdd(p.gradTex + tc[1] + i, dy * uv010);
    if (tc[2] >= 0)
      atomicAdd(p.gradTex + tc[2] + i, dy * uv001);
    if (tc[3] >= 0)
      atomicAdd(p.gradTex + tc[3] + i, dy * uv011);
    // UV gradient.
    float ad = a11 + a00 - a10 - a01;
    gu += dy * ((a10 - a00) + fv * ad);
    gv += dy * ((a01 - a00) + fu * ad);
  }
  p.gradUV[2 * pidx] = gu * p.texWidth;
  p.gradUV[2 * pidx + 1] = gv * p.texHeight;
}

void diffuseCubemapBackward(const ::dwk::DiffuseCubemapKernelParams &p,
                            cudaStream_t stream) {
  const dim3 block(8, 8, 1);
  const dim3 grid((p.gridSize.x + 7) / 8, (p.gridSize.y + 7) / 8, p.gridSize.z);
  DiffuseCubemapBwdKernel<<<grid, block, 0, stream>>>(p);
}

void specularCubemapBackward(const ::dwk::SpecularCubemapKernelParams &p,
                             cudaStream_t stream) {
  const dim3 block(8, 8, 1);
  const dim3 grid((p.gridSize.x + 7) / 8, (p.gridSize.y + 7) / 8, p.gridSize.z);
  SpecularCubemapBwdKernel<<<grid, block, 0, stream>>>(p);
}

void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream) {
  const dim3 block(8, 8, 1);
  const dim3 grid((p.imgWidth + 7) / 8, (p.imgHeight + 7) / 8, 1);
  TextureGradKernelBilinear<<<grid, block, 0, stream>>>(p);
}

} // namespace DISTWAR_VARIANT_NS
