#include "spheres_reference.h"

#include <algorithm>
#include <cmath>

namespace dwk {
namespace {

struct Disc {
  SphereProjection<double> proj;
  double dx, dy, dist2, R2, coverage;
};

Disc disc(const SphereScene &s, int id, int x, int y) {
  Disc d;
  d.proj = projectSphere<double>(s.cam, s.pos[id], s.rad[id]);
  d.dx = d.proj.u - x;
  d.dy = d.proj.v - y;
  d.dist2 = d.dx * d.dx + d.dy * d.dy;
  d.R2 = d.proj.R * d.proj.R;
  d.coverage = 1 - d.dist2 / d.R2;
  return d;
}

} // namespace

SphereForwardReference sphereForwardReference(const SphereScene &s) {
  const int C = s.n_channels;
  SphereForwardReference f;
  f.ids.assign(size_t(s.W) * s.H * PULSAR_K, -1);
  f.image.assign(size_t(s.W) * s.H * C, 0);
  std::vector<char> ambiguous(s.P, 0);
  // Front to back, as the GPU's depth sort orders them (index order on ties).
  std::vector<int> order;
  std::vector<double> depth(s.P);
  for (int i = 0; i < s.P; ++i) {
    const SphereProjection<double> p =
        projectSphere<double>(s.cam, s.pos[i], s.rad[i]);
    depth[i] = p.qz;
    if (p.qz > 0.1)
      order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return depth[a] < depth[b]; });
  for (int y = 0; y < s.H; ++y) {
    for (int x = 0; x < s.W; ++x) {
      const size_t pix = size_t(y) * s.W + x;
      double T = 1, color[PULSAR_MAX_CHANNELS] = {0};
      int found = 0;
      for (int id : order) {
        if (found == PULSAR_K)
          break;
        const Disc d = disc(s, id, x, y);
        if (std::fabs(d.coverage) < 1e-4)
          ambiguous[id] = 1;
        if (d.coverage <= 0)
          continue;
        const double alpha = s.opy[id] * d.coverage;
        for (int ch = 0; ch < C; ++ch)
          color[ch] += s.col[size_t(id) * C + ch] * alpha * T;
        T *= 1 - alpha;
        f.ids[pix * PULSAR_K + found++] = id;
      }
      for (int ch = 0; ch < C; ++ch)
        f.image[pix * C + ch] = color[ch] + T * s.bg[ch];
    }
  }
  for (int i = 0; i < s.P; ++i)
    if (ambiguous[i])
      f.ambiguous.push_back(i);
  return f;
}

SphereGradientReference
sphereBackwardReference(const SphereScene &s, const SphereForwardReference &f) {
  const int C = s.n_channels;
  SphereGradientReference g;
  g.pos.assign(3 * size_t(s.P), 0);
  g.rad.assign(s.P, 0);
  g.opy.assign(s.P, 0);
  g.col.assign(size_t(C) * s.P, 0);
  g.cam.assign(12 * size_t(s.P), 0);
  g.n_hits.assign(s.P, 0);
  const SphereCamera &cam = s.cam;
  const double ax[3] = {cam.axis_x.x, cam.axis_x.y, cam.axis_x.z};
  const double ay[3] = {cam.axis_y.x, cam.axis_y.y, cam.axis_y.z};
  const double az[3] = {cam.axis_z.x, cam.axis_z.y, cam.axis_z.z};
  for (int y = 0; y < s.H; ++y) {
    for (int x = 0; x < s.W; ++x) {
      const size_t pix = size_t(y) * s.W + x;
      const int *ids = &f.ids[pix * PULSAR_K];
      double grad_im[PULSAR_MAX_CHANNELS], bg_dot = 0;
      for (int ch = 0; ch < C; ++ch) {
        grad_im[ch] = s.grad_im[pix * C + ch];
        bg_dot += s.bg[ch] * grad_im[ch];
      }
      double T_final = 1;
      for (int k = 0; k < PULSAR_K; ++k)
        if (ids[k] >= 0)
          T_final *= 1 - s.opy[ids[k]] * disc(s, ids[k], x, y).coverage;
      double T = T_final, last_alpha = 0;
      double accum_rec[PULSAR_MAX_CHANNELS] = {0},
             last_color[PULSAR_MAX_CHANNELS] = {0};
      for (int k = PULSAR_K - 1; k >= 0; --k) {
        const int id = ids[k];
        if (id < 0)
          continue;
        const Disc d = disc(s, id, x, y);
        const double opacity = s.opy[id];
        const double alpha = opacity * d.coverage;
        T = T / (1 - alpha);
        const double weight = alpha * T;
        double grad_alpha = 0;
        for (int ch = 0; ch < C; ++ch) {
          g.col[size_t(id) * C + ch] += weight * grad_im[ch];
          const double c = s.col[size_t(id) * C + ch];
          accum_rec[ch] =
              last_alpha * last_color[ch] + (1 - last_alpha) * accum_rec[ch];
          last_color[ch] = c;
          grad_alpha += (c - accum_rec[ch]) * grad_im[ch];
        }
        grad_alpha *= T;
        last_alpha = alpha;
        grad_alpha += (-T_final / (1 - alpha)) * bg_dot;

        const double grad_cov = grad_alpha * opacity;
        const double grad_u = grad_cov * (-2 * d.dx / d.R2);
        const double grad_v = grad_cov * (-2 * d.dy / d.R2);
        const double grad_R = grad_cov * (2 * d.dist2 / (d.R2 * d.proj.R));
        const double fo = cam.focal;
        double gqx, gqy, gqz, grad_rad;
        if (cam.orthogonal) {
          gqx = grad_u * fo;
          gqy = grad_v * fo;
          gqz = 0;
          grad_rad = grad_R * fo;
        } else {
          const double z = d.proj.qz;
          gqx = grad_u * fo / z;
          gqy = grad_v * fo / z;
          gqz = -(grad_u * fo * d.proj.qx + grad_v * fo * d.proj.qy +
                  grad_R * fo * s.rad[id]) /
                (z * z);
          grad_rad = grad_R * fo / z;
        }
        for (int a = 0; a < 3; ++a) {
          const double gp = gqx * ax[a] + gqy * ay[a] + gqz * az[a];
          g.pos[3 * size_t(id) + a] += gp;
          g.cam[12 * size_t(id) + a] += -gp;
          g.cam[12 * size_t(id) + 3 + a] += gqx * d.proj.q[a];
          g.cam[12 * size_t(id) + 6 + a] += gqy * d.proj.q[a];
          g.cam[12 * size_t(id) + 9 + a] += gqz * d.proj.q[a];
        }
        g.rad[id] += grad_rad;
        g.opy[id] += grad_alpha * d.coverage;
        g.n_hits[id] += 1;
      }
    }
  }
  return g;
}

int removeAmbiguousDecisions(SphereScene &s) {
  int adjustments = 0;
  for (int round = 0; round < 50; ++round) {
    const SphereForwardReference f = sphereForwardReference(s);
    if (f.ambiguous.empty())
      return adjustments;
    for (int id : f.ambiguous)
      s.rad[id] *= 1.001f;
    adjustments += int(f.ambiguous.size());
  }
  return adjustments;
}

} // namespace dwk
