// Backward pass of the Pulsar-like sphere renderer in plain-atomic form, the
// input of distwar-rewrite. Written the way Pulsar writes its backward: pixel
// ids and the early return come from a macro, the atomics from macros, the
// colour gradient from an inlined helper with a runtime channel count.
#include "spheres.h"

#define ATOMICADD(PTR, VAL) atomicAdd((PTR), (VAL))
#define ATOMICADD_F3(PTR, VAL)                                                 \
  ATOMICADD(&((PTR)->x), (VAL).x);                                             \
  ATOMICADD(&((PTR)->y), (VAL).y);                                             \
  ATOMICADD(&((PTR)->z), (VAL).z)

// Computes the pixel this thread works on; threads outside the image leave.
#define GET_PIXEL_OR_RETURN(W, H)                                              \
  const int coord_x = blockIdx.x * blockDim.x + threadIdx.x;                   \
  const int coord_y = blockIdx.y * blockDim.y + threadIdx.y;                   \
  if (coord_x >= (W) || coord_y >= (H))                                        \
    return;                                                                    \
  const int pix_idx = coord_y * (W) + coord_x

namespace DISTWAR_VARIANT_NS {

__device__ __forceinline__ void
accumulate_color_grad(float *grad_col, const int sphere_idx,
                      const int n_channels, const float weight,
                      const float *grad_im_pix) {
  for (int ch = 0; ch < n_channels; ++ch)
    ATOMICADD(&grad_col[sphere_idx * n_channels + ch],
              weight * grad_im_pix[ch]);
}

__global__ void __launch_bounds__(256)
    render_backward(const ::dwk::SphereBackwardArgs p) {
  GET_PIXEL_OR_RETURN(p.W, p.H);
  const int *ids = p.ids + pix_idx * PULSAR_K;
  const int n_channels = p.n_channels;
  const float px = (float)coord_x, py = (float)coord_y;

  float grad_im_pix[PULSAR_MAX_CHANNELS];
  float bg_dot_grad = 0.f;
  for (int ch = 0; ch < n_channels; ++ch) {
    grad_im_pix[ch] = p.grad_im[pix_idx * n_channels + ch];
    bg_dot_grad += p.bg[ch] * grad_im_pix[ch];
  }

  // Transmittance left behind the closest spheres.
  float T_final = 1.f;
  for (int k = 0; k < PULSAR_K; ++k) {
    const int sphere_idx = ids[k];
    if (sphere_idx >= 0) {
      const ::dwk::SphereProjection<float> proj = ::dwk::projectSphere<float>(
          p.cam, p.pos[sphere_idx], p.rad[sphere_idx]);
      const float dx = proj.u - px, dy = proj.v - py;
      const float coverage = 1.f - (dx * dx + dy * dy) / (proj.R * proj.R);
      T_final *= 1.f - p.opy[sphere_idx] * coverage;
    }
  }

  // Back to front, as the blending is undone.
  float T = T_final;
  float last_alpha = 0.f;
  float accum_rec[PULSAR_MAX_CHANNELS];
  float last_color[PULSAR_MAX_CHANNELS];
  for (int ch = 0; ch < n_channels; ++ch)
    accum_rec[ch] = last_color[ch] = 0.f;
  for (int k = PULSAR_K - 1; k >= 0; --k) {
    const int sphere_idx = ids[k];
    if (sphere_idx >= 0) {
      const ::dwk::SphereProjection<float> proj = ::dwk::projectSphere<float>(
          p.cam, p.pos[sphere_idx], p.rad[sphere_idx]);
      const float dx = proj.u - px, dy = proj.v - py;
      const float dist2 = dx * dx + dy * dy;
      const float R2 = proj.R * proj.R;
      const float coverage = 1.f - dist2 / R2;
      const float opacity = p.opy[sphere_idx];
      const float alpha = opacity * coverage;

      T = T / (1.f - alpha);
      const float weight = alpha * T;
      accumulate_color_grad(p.grad_col, sphere_idx, n_channels, weight,
                            grad_im_pix);

      float grad_alpha = 0.f;
      for (int ch = 0; ch < n_channels; ++ch) {
        const float c = p.col[sphere_idx * n_channels + ch];
        accum_rec[ch] =
            last_alpha * last_color[ch] + (1.f - last_alpha) * accum_rec[ch];
        last_color[ch] = c;
        grad_alpha += (c - accum_rec[ch]) * grad_im_pix[ch];
      }
      grad_alpha *= T;
      last_alpha = alpha;
      grad_alpha += (-T_final / (1.f - alpha)) * bg_dot_grad;

      // Through the disc coverage to the projected centre and radius.
      const float grad_coverage = grad_alpha * opacity;
      const float grad_u = grad_coverage * (-2.f * dx / R2);
      const float grad_v = grad_coverage * (-2.f * dy / R2);
      const float grad_R = grad_coverage * (2.f * dist2 / (R2 * proj.R));
      const float f = p.cam.focal;
      float grad_qx, grad_qy, grad_qz, grad_rad;
      if (p.cam.orthogonal) {
        grad_qx = grad_u * f;
        grad_qy = grad_v * f;
        grad_qz = 0.f;
        grad_rad = grad_R * f;
      } else {
        const float inv_z = 1.f / proj.qz;
        grad_qx = grad_u * f * inv_z;
        grad_qy = grad_v * f * inv_z;
        grad_qz = -(grad_u * f * proj.qx + grad_v * f * proj.qy +
                    grad_R * f * p.rad[sphere_idx]) *
                  inv_z * inv_z;
        grad_rad = grad_R * f * inv_z;
      }
      const float3 grad_pos =
          make_float3(grad_qx * p.cam.axis_x.x + grad_qy * p.cam.axis_y.x +
                          grad_qz * p.cam.axis_z.x,
                      grad_qx * p.cam.axis_x.y + grad_qy * p.cam.axis_y.y +
                          grad_qz * p.cam.axis_z.y,
                      grad_qx * p.cam.axis_x.z + grad_qy * p.cam.axis_y.z +
                          grad_qz * p.cam.axis_z.z);
      const float3 grad_cam_pos =
          make_float3(-grad_pos.x, -grad_pos.y, -grad_pos.z);
      const float3 grad_axis_x = make_float3(
          grad_qx * proj.q[0], grad_qx * proj.q[1], grad_qx * proj.q[2]);
      const float3 grad_axis_y = make_float3(
          grad_qy * proj.q[0], grad_qy * proj.q[1], grad_qy * proj.q[2]);

      ATOMICADD_F3(&p.grad_pos[sphere_idx], grad_pos);
      ATOMICADD(&p.grad_rad[sphere_idx], grad_rad);
      ATOMICADD(&p.grad_opy[sphere_idx], grad_alpha * coverage);
      ATOMICADD_F3(&p.grad_cam_buf[sphere_idx].cam_pos, grad_cam_pos);
      ATOMICADD_F3(&p.grad_cam_buf[sphere_idx].axis_x, grad_axis_x);
      ATOMICADD_F3(&p.grad_cam_buf[sphere_idx].axis_y, grad_axis_y);
      if (!p.cam.orthogonal) {
        const float3 grad_axis_z = make_float3(
            grad_qz * proj.q[0], grad_qz * proj.q[1], grad_qz * proj.q[2]);
        ATOMICADD_F3(&p.grad_cam_buf[sphere_idx].axis_z, grad_axis_z);
      }
      ATOMICADD(&p.n_hits[sphere_idx], 1);
    }
  }
}

void sphereBackward(const ::dwk::SphereBackwardArgs &args,
                    cudaStream_t stream) {
  render_backward<<<args.grid, args.block, 0, stream>>>(args);
}

} // namespace DISTWAR_VARIANT_NS
