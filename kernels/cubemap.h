// nvdiffrec-style environment-light and texture learning: the diffuse
// (irradiance) and specular (GGX-filtered) cubemap integrals and the bilinear
// texture lookup of nvdiffrast, with their backward passes.
#pragma once

#include "device_buffer.h"
#include "dwk_common.h"

#include <cmath>
#include <string>
#include <vector>

namespace dwk {

// Cubemap math of nvdiffrec's cubemap.cu, one template for the kernels
// (T = float) and the float64 reference.
template <typename T> struct Vec3 { T x, y, z; };

template <typename T> inline DWK_HD T dot(const Vec3<T> &a, const Vec3<T> &b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

template <typename T> inline DWK_HD Vec3<T> safeNormalize(Vec3<T> v) {
  T l = sqrt(dot(v, v));
  return l > T(0) ? Vec3<T>{v.x / l, v.y / l, v.z / l} : Vec3<T>{0, 0, 0};
}

template <typename T>
inline DWK_HD Vec3<T> cube_to_dir(int x, int y, int side, int N) {
  T fx = T(2) * ((T(x) + T(0.5)) / T(N)) - T(1);
  T fy = T(2) * ((T(y) + T(0.5)) / T(N)) - T(1);
  switch (side) {
  case 0:
    return safeNormalize(Vec3<T>{1, -fy, -fx});
  case 1:
    return safeNormalize(Vec3<T>{-1, -fy, fx});
  case 2:
    return safeNormalize(Vec3<T>{fx, 1, fy});
  case 3:
    return safeNormalize(Vec3<T>{fx, -1, -fy});
  case 4:
    return safeNormalize(Vec3<T>{fx, -fy, 1});
  default:
    return safeNormalize(Vec3<T>{-fx, -fy, -1});
  }
}

template <typename T> inline DWK_HD T pixel_area(int x, int y, int N) {
  if (N > 1) {
    int H = N / 2;
    x = x - H < 0 ? H - x : x - H;
    y = y - H < 0 ? H - y : y - H;
    T dx = atan(T(x + 1) / T(H)) - atan(T(x) / T(H));
    T dy = atan(T(y + 1) / T(H)) - atan(T(y) / T(H));
    return dx * dy;
  }
  return T(1);
}

template <typename T>
inline DWK_HD T ndfGGX(const T alphaSqr, const T cosTheta) {
  T c = cosTheta < T(0) ? T(0) : (cosTheta > T(1) ? T(1) : cosTheta);
  T d = (c * alphaSqr - c) * c + T(1);
  return alphaSqr / (d * d * T(3.14159265358979323846));
}

// Weight of input texel (x, y, s) for output direction VNR (specular).
template <typename T>
inline DWK_HD T specularWeight(const Vec3<T> &L, const Vec3<T> &VNR, T alphaSqr,
                               int x, int y, int N) {
  Vec3<T> H = safeNormalize(Vec3<T>{L.x + VNR.x, L.y + VNR.y, L.z + VNR.z});
  T wiDotN = dot(L, VNR);
  wiDotN = wiDotN > T(0) ? wiDotN : T(0);
  T VNDotH = dot(VNR, H);
  VNDotH = VNDotH > T(0) ? VNDotH : T(0);
  return wiDotN * ndfGGX(alphaSqr, VNDotH) * pixel_area<T>(x, y, N) / T(4);
}

// Weight of input texel (x, y) for output normal N (diffuse).
template <typename T>
inline DWK_HD T diffuseWeight(const Vec3<T> &Nrm, const Vec3<T> &L, int x,
                              int y, int N) {
  T costheta = dot(Nrm, L);
  costheta =
      costheta < T(0) ? T(0) : (costheta > T(0.999) ? T(0.999) : costheta);
  return costheta * pixel_area<T>(x, y, N) / T(3.141592);
}

// NHWC cube: dims = {6, N, N, channels}.
struct CubeTensor {
  const float *val;
  float *d_val;
  int dims[4];
  DWK_HD int nhwcIndexContinuous(int z, int y, int x, int c) const {
    return ((z * dims[1] + y) * dims[2] + x) * dims[3] + c;
  }
};

struct DiffuseCubemapKernelParams {
  CubeTensor cubemap;
  const float *gradIn; // 6 * N * N * 3, gradient of the output
  float *out;          // forward output, 6 * N * N * 3
  dim3 gridSize;       // N, N, 6
};

struct SpecularCubemapKernelParams {
  CubeTensor cubemap;
  const int *bounds;   // per output texel and face: xmin, xmax, ymin, ymax
  const float *gradIn; // 6 * N * N * 3, gradient of the colour sum
  float *out;          // forward output: colour sum (3) and weight sum (1)
  float roughness;
  float costheta_cutoff;
  dim3 gridSize;
};

inline DWK_HD int boundsIndex(int px, int py, int pz, int face, int N) {
  return (((pz * N + py) * N + px) * 6 + face) * 4;
}

struct TextureKernelParams {
  const float *tex; // texHeight * texWidth * channels
  float *gradTex;
  const float *uv; // imgHeight * imgWidth * 2
  float *gradUV;
  const float *dy; // imgHeight * imgWidth * channels: gradient of the output
  float *out;      // forward output
  int channels;
  int texWidth, texHeight;
  int imgWidth, imgHeight;
};

// Texel corner indices (element offsets, -1 outside: zero boundary) and the
// fractional position, as nvdiffrast's indexTextureLinear.
template <typename T>
inline DWK_HD void indexTextureLinear(const TextureKernelParams &p, T u_in,
                                      T v_in, int tc[4], T &fu, T &fv) {
  T u = u_in * T(p.texWidth) - T(0.5);
  T v = v_in * T(p.texHeight) - T(0.5);
  T x0f = floor(u), y0f = floor(v);
  fu = u - x0f;
  fv = v - y0f;
  int x0 = int(x0f), y0 = int(y0f);
  for (int k = 0; k < 4; ++k) {
    int x = x0 + (k & 1), y = y0 + (k >> 1);
    bool in = x >= 0 && y >= 0 && x < p.texWidth && y < p.texHeight;
    tc[k] = in ? (y * p.texWidth + x) * p.channels : -1;
  }
}

struct CubemapPreset {
  const char *name;
  int N;
  double roughness; // specular only
  const char *description;
};
struct TexturePreset {
  const char *name;
  int texWidth, texHeight, imgWidth, imgHeight, channels;
  double uv_lo, uv_hi; // uv range covered by the image
  const char *description;
};

const std::vector<CubemapPreset> &cubemapPresets();
const CubemapPreset *findCubemapPreset(const std::string &name);
const std::vector<TexturePreset> &texturePresets();
const TexturePreset *findTexturePreset(const std::string &name);

struct CubemapScene {
  std::string preset;
  int N = 0;
  float roughness = 0, costheta_cutoff = 0;
  std::vector<float> cubemap; // 6 * N * N * 3
  std::vector<float> gradIn;  // 6 * N * N * 3
};
// The cutoff is nvdiffrec's: the angle holding 99% of the GGX lobe.
CubemapScene makeCubemapScene(const CubemapPreset &preset, uint64_t seed);

struct TextureScene {
  std::string preset;
  int texWidth = 0, texHeight = 0, imgWidth = 0, imgHeight = 0, channels = 0;
  std::vector<float> tex, uv, dy;
};
// Texel-boundary crossings are kept a relative 1e-3 away from every pixel.
TextureScene makeTextureScene(const TexturePreset &preset, uint64_t seed);

class CubemapDeviceScene {
public:
  explicit CubemapDeviceScene(const CubemapScene &scene);
  void computeBounds(cudaStream_t stream = 0); // once per cutoff
  void diffuseForward(cudaStream_t stream = 0);
  void specularForward(cudaStream_t stream = 0);
  void zeroGradients(cudaStream_t stream = 0);
  DiffuseCubemapKernelParams diffuseParams();
  SpecularCubemapKernelParams specularParams();

  int N;
  float roughness, costheta_cutoff;
  DeviceBuffer<float> cubemap, gradCubemap, gradIn, diffuseOut, specularOut;
  DeviceBuffer<int> bounds;
};

class TextureDeviceScene {
public:
  explicit TextureDeviceScene(const TextureScene &scene);
  void forward(cudaStream_t stream = 0);
  void zeroGradients(cudaStream_t stream = 0);
  TextureKernelParams params();

  int texWidth, texHeight, imgWidth, imgHeight, channels;
  DeviceBuffer<float> tex, gradTex, uv, gradUV, dy, out;
};

} // namespace dwk

#define DWK_DECLARE_CUBEMAP_BACKWARD(ns)                                       \
  namespace ns {                                                               \
  void diffuseCubemapBackward(const ::dwk::DiffuseCubemapKernelParams &p,      \
                              cudaStream_t stream);                            \
  void specularCubemapBackward(const ::dwk::SpecularCubemapKernelParams &p,    \
                               cudaStream_t stream);                           \
  void textureGradBilinear(const ::dwk::TextureKernelParams &p,                \
                           cudaStream_t stream);                               \
  }
