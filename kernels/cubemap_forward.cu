// Forward passes of the cubemap and texture workloads, the specular bounds
// table, and their GPU-resident scenes. Not rewritten: no atomics.
#include "cubemap.h"

namespace dwk {
namespace {

__global__ void DiffuseCubemapFwdKernel(DiffuseCubemapKernelParams p) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  int pz = blockIdx.z;
  if (px >= p.gridSize.x || py >= p.gridSize.y || pz >= p.gridSize.z)
    return;
  int Npx = p.cubemap.dims[1];
  Vec3<float> N = cube_to_dir<float>(px, py, pz, Npx);
  float col[3] = {0, 0, 0};
  for (int s = 0; s < p.cubemap.dims[0]; ++s)
    for (int y = 0; y < Npx; ++y)
      for (int x = 0; x < Npx; ++x) {
        Vec3<float> L = cube_to_dir<float>(x, y, s, Npx);
        float w = diffuseWeight<float>(N, L, x, y, Npx);
        for (int c = 0; c < 3; ++c)
          col[c] +=
              p.cubemap.val[p.cubemap.nhwcIndexContinuous(s, y, x, c)] * w;
      }
  for (int c = 0; c < 3; ++c)
    p.out[((pz * Npx + py) * Npx + px) * 3 + c] = col[c];
}

// nvdiffrec's SpecularBoundsKernel: per output texel and face, the bounding
// box of the texels within the cutoff cone. Padded by 1e-4 in the cosine so
// that the box holds every texel the per-texel test accepts.
__global__ void SpecularBoundsKernel(int N, float costheta_cutoff,
                                     int *bounds) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  int pz = blockIdx.z;
  if (px >= N || py >= N)
    return;
  Vec3<float> VNR = cube_to_dir<float>(px, py, pz, N);
  for (int s = 0; s < 6; ++s) {
    int xmin = N, xmax = -1, ymin = N, ymax = -1;
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x)
        if (dot(cube_to_dir<float>(x, y, s, N), VNR) >=
            costheta_cutoff - 1e-4f) {
          xmin = min(xmin, x);
          xmax = max(xmax, x);
          ymin = min(ymin, y);
          ymax = max(ymax, y);
        }
    int *b = bounds + boundsIndex(px, py, pz, s, N);
    b[0] = xmin;
    b[1] = xmax;
    b[2] = ymin;
    b[3] = ymax;
  }
}

__global__ void SpecularCubemapFwdKernel(SpecularCubemapKernelParams p) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  int pz = blockIdx.z;
  if (px >= p.gridSize.x || py >= p.gridSize.y || pz >= p.gridSize.z)
    return;
  int Npx = p.cubemap.dims[1];
  Vec3<float> VNR = cube_to_dir<float>(px, py, pz, Npx);
  float alpha = p.roughness * p.roughness;
  float alphaSqr = alpha * alpha;
  float wsum = 0.f, col[3] = {0, 0, 0};
  for (int s = 0; s < p.cubemap.dims[0]; ++s) {
    const int *b = p.bounds + boundsIndex(px, py, pz, s, Npx);
    for (int y = b[2]; y <= b[3]; ++y)
      for (int x = b[0]; x <= b[1]; ++x) {
        Vec3<float> L = cube_to_dir<float>(x, y, s, Npx);
        if (dot(L, VNR) >= p.costheta_cutoff) {
          float w = specularWeight<float>(L, VNR, alphaSqr, x, y, Npx);
          wsum += w;
          for (int c = 0; c < 3; ++c)
            col[c] +=
                p.cubemap.val[p.cubemap.nhwcIndexContinuous(s, y, x, c)] * w;
        }
      }
  }
  float *o = p.out + ((pz * Npx + py) * Npx + px) * 4;
  o[0] = col[0];
  o[1] = col[1];
  o[2] = col[2];
  o[3] = wsum;
}

__global__ void TextureFwdKernelBilinear(const TextureKernelParams p) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= p.imgWidth || py >= p.imgHeight)
    return;
  int pidx = px + p.imgWidth * py;
  int tc[4];
  float fu, fv;
  indexTextureLinear<float>(p, p.uv[2 * pidx], p.uv[2 * pidx + 1], tc, fu, fv);
  const float w[4] = {(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv,
                      fu * fv};
  for (int i = 0; i < p.channels; ++i) {
    float v = 0.f;
    for (int k = 0; k < 4; ++k)
      if (tc[k] >= 0)
        v += w[k] * p.tex[tc[k] + i];
    p.out[pidx * p.channels + i] = v;
  }
}

dim3 cubeGrid(int N) { return dim3((N + 7) / 8, (N + 7) / 8, 6); }

} // namespace

CubemapDeviceScene::CubemapDeviceScene(const CubemapScene &s)
    : N(s.N), roughness(s.roughness), costheta_cutoff(s.costheta_cutoff) {
  cubemap.upload(s.cubemap);
  gradIn.upload(s.gradIn);
  gradCubemap.resize(s.cubemap.size());
  diffuseOut.resize(size_t(6) * N * N * 3);
  specularOut.resize(size_t(6) * N * N * 4);
  bounds.resize(size_t(6) * N * N * 6 * 4);
}

void CubemapDeviceScene::computeBounds(cudaStream_t stream) {
  SpecularBoundsKernel<<<cubeGrid(N), dim3(8, 8), 0, stream>>>(
      N, costheta_cutoff, bounds.data());
  DWK_CHECK(cudaGetLastError());
}

DiffuseCubemapKernelParams CubemapDeviceScene::diffuseParams() {
  DiffuseCubemapKernelParams p;
  p.cubemap = CubeTensor{cubemap.data(), gradCubemap.data(), {6, N, N, 3}};
  p.gradIn = gradIn.data();
  p.out = diffuseOut.data();
  p.gridSize = dim3(N, N, 6);
  return p;
}

SpecularCubemapKernelParams CubemapDeviceScene::specularParams() {
  SpecularCubemapKernelParams p;
  p.cubemap = CubeTensor{cubemap.data(), gradCubemap.data(), {6, N, N, 3}};
  p.bounds = bounds.data();
  p.gradIn = gradIn.data();
  p.out = specularOut.data();
  p.roughness = roughness;
  p.costheta_cutoff = costheta_cutoff;
  p.gridSize = dim3(N, N, 6);
  return p;
}

void CubemapDeviceScene::diffuseForward(cudaStream_t stream) {
  DiffuseCubemapFwdKernel<<<cubeGrid(N), dim3(8, 8), 0, stream>>>(
      diffuseParams());
  DWK_CHECK(cudaGetLastError());
}

void CubemapDeviceScene::specularForward(cudaStream_t stream) {
  SpecularCubemapFwdKernel<<<cubeGrid(N), dim3(8, 8), 0, stream>>>(
      specularParams());
  DWK_CHECK(cudaGetLastError());
}

void CubemapDeviceScene::zeroGradients(cudaStream_t stream) {
  gradCubemap.zero(stream);
}

TextureDeviceScene::TextureDeviceScene(const TextureScene &s)
    : texWidth(s.texWidth), texHeight(s.texHeight), imgWidth(s.imgWidth),
      imgHeight(s.imgHeight), channels(s.channels) {
  tex.upload(s.tex);
  uv.upload(s.uv);
  dy.upload(s.dy);
  gradTex.resize(s.tex.size());
  gradUV.resize(s.uv.size());
  out.resize(size_t(imgWidth) * imgHeight * channels);
}

TextureKernelParams TextureDeviceScene::params() {
  TextureKernelParams p;
  p.tex = tex.data();
  p.gradTex = gradTex.data();
  p.uv = uv.data();
  p.gradUV = gradUV.data();
  p.dy = dy.data();
  p.out = out.data();
  p.channels = channels;
  p.texWidth = texWidth;
  p.texHeight = texHeight;
  p.imgWidth = imgWidth;
  p.imgHeight = imgHeight;
  return p;
}

void TextureDeviceScene::forward(cudaStream_t stream) {
  TextureFwdKernelBilinear<<<dim3((imgWidth + 7) / 8, (imgHeight + 7) / 8),
                             dim3(8, 8), 0, stream>>>(params());
  DWK_CHECK(cudaGetLastError());
}

void TextureDeviceScene::zeroGradients(cudaStream_t stream) {
  gradTex.zero(stream);
  // gradUV is written, not accumulated: no zeroing needed.
}

} // namespace dwk
