// Forward pass of the Pulsar-like sphere renderer and its GPU-resident scene.
// Not rewritten: it has no atomics.
#include "spheres.h"
#include "tiles.h"

namespace dwk {
namespace {

// Projects each sphere to a disc for the binning; spheres behind the near
// plane get radius 0 (not binned).
__global__ void projectForBinning(int P, SphereCamera cam, const float3 *pos,
                                  const float *rad, float2 *means2D, int *radii,
                                  float *depths) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= P)
    return;
  const SphereProjection<float> proj =
      projectSphere<float>(cam, pos[idx], rad[idx]);
  const bool visible = proj.qz > 0.1f;
  means2D[idx] = make_float2(proj.u, proj.v);
  radii[idx] = visible ? (int)ceilf(proj.R) + 1 : 0;
  depths[idx] = visible ? proj.qz : 1.f;
}

// Each pixel walks its tile's spheres front to back and keeps the first
// PULSAR_K whose disc covers it.
__global__ void __launch_bounds__(256)
    renderForward(int W, int H, int n_channels, SphereCamera cam,
                  const uint2 *ranges, const uint32_t *point_list,
                  const float3 *pos, const float *rad, const float *opy,
                  const float *col, const float *bg, int *ids, float *image) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H)
    return;
  const int pix = y * W + x;
  const uint2 range = ranges[blockIdx.y * gridDim.x + blockIdx.x];
  float color[PULSAR_MAX_CHANNELS];
  for (int ch = 0; ch < n_channels; ++ch)
    color[ch] = 0.f;
  float T = 1.f;
  int found = 0;
  for (uint32_t i = range.x; i < range.y && found < PULSAR_K; ++i) {
    const int id = point_list[i];
    const SphereProjection<float> proj =
        projectSphere<float>(cam, pos[id], rad[id]);
    const float dx = proj.u - (float)x, dy = proj.v - (float)y;
    const float coverage = 1.f - (dx * dx + dy * dy) / (proj.R * proj.R);
    if (coverage <= 0.f)
      continue;
    const float alpha = opy[id] * coverage;
    for (int ch = 0; ch < n_channels; ++ch)
      color[ch] += col[id * n_channels + ch] * alpha * T;
    T *= 1.f - alpha;
    ids[pix * PULSAR_K + found++] = id;
  }
  for (int k = found; k < PULSAR_K; ++k)
    ids[pix * PULSAR_K + k] = -1;
  for (int ch = 0; ch < n_channels; ++ch)
    image[pix * n_channels + ch] = color[ch] + T * bg[ch];
}

} // namespace

SphereDeviceScene::SphereDeviceScene(const SphereScene &s)
    : W(s.W), H(s.H), P(s.P), n_channels(s.n_channels), cam(s.cam) {
  pos.upload(s.pos);
  rad.upload(s.rad);
  opy.upload(s.opy);
  col.upload(s.col);
  bg.upload(s.bg);
  grad_im.upload(s.grad_im);
  means2D.resize(P);
  radii.resize(P);
  depths.resize(P);
  ids.resize(size_t(W) * H * PULSAR_K);
  image.resize(size_t(W) * H * n_channels);
  grad_pos.resize(P);
  grad_rad.resize(P);
  grad_opy.resize(P);
  grad_col.resize(size_t(P) * n_channels);
  grad_cam_buf.resize(P);
  n_hits.resize(P);
}

void SphereDeviceScene::bin(cudaStream_t stream) {
  projectForBinning<<<(P + 255) / 256, 256, 0, stream>>>(
      P, cam, pos.data(), rad.data(), means2D.data(), radii.data(),
      depths.data());
  binPrimitives(P, means2D.data(), radii.data(), depths.data(), W, H, bins,
                stream);
}

void SphereDeviceScene::forward(cudaStream_t stream) {
  renderForward<<<tileGrid(W, H), dim3(BLOCK_X, BLOCK_Y), 0, stream>>>(
      W, H, n_channels, cam, bins.ranges.data(), bins.point_list.data(),
      pos.data(), rad.data(), opy.data(), col.data(), bg.data(), ids.data(),
      image.data());
  DWK_CHECK(cudaGetLastError());
}

void SphereDeviceScene::zeroGradients(cudaStream_t stream) {
  grad_pos.zero(stream);
  grad_rad.zero(stream);
  grad_opy.zero(stream);
  grad_col.zero(stream);
  grad_cam_buf.zero(stream);
  n_hits.zero(stream);
}

void SphereDeviceScene::poisonForwardOutputs(cudaStream_t stream) {
  // 0x7F7F7F7F is neither -1 nor a sphere id: every unwritten id shows.
  DWK_CHECK(
      cudaMemsetAsync(ids.data(), 0x7F, ids.size() * sizeof(int), stream));
  image.poison(stream);
}

SphereBackwardArgs SphereDeviceScene::backwardArgs() {
  SphereBackwardArgs a;
  a.grid = tileGrid(W, H);
  a.block = dim3(BLOCK_X, BLOCK_Y);
  a.W = W;
  a.H = H;
  a.n_channels = n_channels;
  a.cam = cam;
  a.pos = pos.data();
  a.rad = rad.data();
  a.opy = opy.data();
  a.col = col.data();
  a.bg = bg.data();
  a.ids = ids.data();
  a.grad_im = grad_im.data();
  a.grad_pos = grad_pos.data();
  a.grad_rad = grad_rad.data();
  a.grad_opy = grad_opy.data();
  a.grad_col = grad_col.data();
  a.grad_cam_buf = grad_cam_buf.data();
  a.n_hits = n_hits.data();
  return a;
}

} // namespace dwk
