// A Pulsar-like sphere renderer: spheres are projected to discs, binned into
// tiles, and each pixel blends the K closest discs that cover it front to
// back. The backward pass differentiates the sphere parameters and keeps
// per-sphere camera-gradient buffers, as Pulsar does.
#pragma once

#include "binning.h"
#include "device_buffer.h"
#include "dwk_common.h"

#include <string>
#include <vector>

#define PULSAR_K 5            // closest spheres kept per pixel
#define PULSAR_MAX_CHANNELS 8 // upper bound of the runtime channel count

namespace dwk {

struct SphereCamera {
  float3 pos;                    // camera centre
  float3 axis_x, axis_y, axis_z; // camera axes in world space
  float focal;                   // pixels per unit (orthogonal: per world unit)
  float cx, cy;                  // principal point, pixels
  bool orthogonal;
};

// Per-sphere gradients of the camera parameters (Pulsar's CamGradInfo),
// summed over spheres by the caller.
struct CamGradInfo {
  float3 cam_pos;
  float3 axis_x;
  float3 axis_y;
  float3 axis_z;
};

template <typename T> struct SphereProjection {
  T q[3];       // sphere centre relative to the camera, world axes
  T qx, qy, qz; // camera coordinates
  T u, v, R;    // disc centre and radius, pixels
};

// One function for the kernels (T = float) and the float64 reference.
template <typename T>
inline DWK_HD SphereProjection<T> projectSphere(const SphereCamera &cam,
                                                const float3 pos, float rad) {
  SphereProjection<T> p;
  p.q[0] = T(pos.x) - T(cam.pos.x);
  p.q[1] = T(pos.y) - T(cam.pos.y);
  p.q[2] = T(pos.z) - T(cam.pos.z);
  p.qx = p.q[0] * T(cam.axis_x.x) + p.q[1] * T(cam.axis_x.y) +
         p.q[2] * T(cam.axis_x.z);
  p.qy = p.q[0] * T(cam.axis_y.x) + p.q[1] * T(cam.axis_y.y) +
         p.q[2] * T(cam.axis_y.z);
  p.qz = p.q[0] * T(cam.axis_z.x) + p.q[1] * T(cam.axis_z.y) +
         p.q[2] * T(cam.axis_z.z);
  if (cam.orthogonal) {
    p.u = T(cam.focal) * p.qx + T(cam.cx);
    p.v = T(cam.focal) * p.qy + T(cam.cy);
    p.R = T(cam.focal) * T(rad);
  } else {
    p.u = T(cam.focal) * p.qx / p.qz + T(cam.cx);
    p.v = T(cam.focal) * p.qy / p.qz + T(cam.cy);
    p.R = T(cam.focal) * T(rad) / p.qz;
  }
  return p;
}

struct SpherePreset {
  const char *name;
  int P, W, H, n_channels;
  double median_radius_px, radius_log_sigma;
  bool orthogonal;
  const char *description;
};

const std::vector<SpherePreset> &spherePresets();
const SpherePreset *findSpherePreset(const std::string &name);

struct SphereScene {
  std::string preset;
  int W = 0, H = 0, P = 0, n_channels = 0;
  SphereCamera cam;
  std::vector<float3> pos;
  std::vector<float> rad, opy, col; // col: P * n_channels
  std::vector<float> bg;            // n_channels
  std::vector<float> grad_im;       // H * W * n_channels (interleaved)
};

SphereScene makeSphereScene(const SpherePreset &preset, uint64_t seed);

struct SphereBackwardArgs {
  dim3 grid, block;
  int W, H, n_channels;
  SphereCamera cam;
  const float3 *pos;
  const float *rad, *opy, *col, *bg;
  const int *ids; // H * W * PULSAR_K, front to back, -1: none
  const float *grad_im;
  float3 *grad_pos;
  float *grad_rad, *grad_opy, *grad_col;
  CamGradInfo *grad_cam_buf;
  int *n_hits;
};

class SphereDeviceScene {
public:
  explicit SphereDeviceScene(const SphereScene &scene);
  void bin(cudaStream_t stream = 0); // projects, then bins
  void forward(cudaStream_t stream = 0);
  void zeroGradients(cudaStream_t stream = 0);
  void poisonForwardOutputs(cudaStream_t stream = 0);
  SphereBackwardArgs backwardArgs();

  int W, H, P, n_channels;
  SphereCamera cam;
  DeviceBuffer<float3> pos;
  DeviceBuffer<float> rad, opy, col, bg, grad_im;
  // Projection for the binning.
  DeviceBuffer<float2> means2D;
  DeviceBuffer<int> radii;
  DeviceBuffer<float> depths;
  TileBins bins;
  // Forward outputs.
  DeviceBuffer<int> ids;
  DeviceBuffer<float> image; // H * W * n_channels
  // Gradients.
  DeviceBuffer<float3> grad_pos;
  DeviceBuffer<float> grad_rad, grad_opy, grad_col;
  DeviceBuffer<CamGradInfo> grad_cam_buf;
  DeviceBuffer<int> n_hits;
};

} // namespace dwk

#define DWK_DECLARE_SPHERE_BACKWARD(ns)                                        \
  namespace ns {                                                               \
  void sphereBackward(const ::dwk::SphereBackwardArgs &args,                   \
                      cudaStream_t stream);                                    \
  }
