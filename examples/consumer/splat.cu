// Splats weighted samples into grid cells: each sample adds its weight and
// its weighted position to the three fields of its cell with atomicAdd, the
// per-lane gradient-accumulation pattern that distwar batches. Checks the
// sums against a float64 CPU reference where a GPU is present. The moments
// are added in a header function (EDIT_HEADERS).
#include "consumer/moments.cuh"
#include <distwar/sites.h>

#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void splat(int n, const int *cell, const float *weight,
                      const float2 *pos, float *mass, float *moments) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int c = cell[i];
  float w = weight[i];
  atomicAdd(&mass[c], w);
  addMoments(moments + 2 * c, w, pos[i]);
}

int main() {
  // Site registration is host-only: it shows the rewritten copy was built.
  std::vector<std::string> sites = distwar::siteNames();
  std::printf("distwar sites:");
  for (const std::string &s : sites)
    std::printf(" %s", s.c_str());
  std::printf("\n");
  int passed = 0, failed = 0;
  if (sites.empty()) {
    std::printf("FAILED: no distwar site registered; was the rewritten copy compiled?\n");
    ++failed;
  } else {
    ++passed;
  }
  bool header_site = false;
  for (const std::string &s : sites)
    header_site |= s.rfind("consumer/moments.cuh:", 0) == 0;
  if (!header_site) {
    std::printf("FAILED: no site of consumer/moments.cuh; was its edited copy "
                "first on the include path?\n");
    ++failed;
  } else {
    ++passed;
  }

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    if (failed)
      return 1;
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }

  const int n = 1 << 20, cells = 1 << 10;
  std::vector<int> cell(n);
  std::vector<float> weight(n);
  std::vector<float2> pos(n);
  unsigned state = 12345u;
  auto next = [&state] { return (state = state * 1664525u + 1013904223u) >> 8; };
  for (int i = 0; i < n; ++i) {
    // Runs of equal cells, as neighbouring pixels hit one primitive.
    cell[i] = (i / 16 + (next() % 4 == 0 ? next() : 0)) % cells;
    weight[i] = (next() % 1000) / 1000.0f;
    pos[i] = make_float2((next() % 2000) / 1000.0f - 1, (next() % 2000) / 1000.0f - 1);
  }
  int *d_cell;
  float *d_weight, *d_out;
  float2 *d_pos;
  cudaMalloc(&d_cell, n * sizeof(int));
  cudaMalloc(&d_weight, n * sizeof(float));
  cudaMalloc(&d_pos, n * sizeof(float2));
  cudaMalloc(&d_out, 3 * cells * sizeof(float));
  cudaMemcpy(d_cell, cell.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_weight, weight.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_pos, pos.data(), n * sizeof(float2), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, 3 * cells * sizeof(float));
  splat<<<(n + 255) / 256, 256>>>(n, d_cell, d_weight, d_pos, d_out,
                                  d_out + cells);
  std::vector<float> out(3 * cells);
  cudaError_t err = cudaMemcpy(out.data(), d_out, out.size() * sizeof(float),
                               cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }

  std::vector<double> ref(3 * cells, 0.0), abs_sum(3 * cells, 0.0);
  for (int i = 0; i < n; ++i) {
    double terms[3] = {weight[i], double(weight[i]) * pos[i].x,
                       double(weight[i]) * pos[i].y};
    // Masses first, then the two moments of each cell side by side.
    const int at[3] = {cell[i], cells + 2 * cell[i], cells + 2 * cell[i] + 1};
    for (int f = 0; f < 3; ++f) {
      ref[at[f]] += terms[f];
      abs_sum[at[f]] += std::fabs(terms[f]);
    }
  }
  for (int k = 0; k < 3 * cells; ++k) {
    // float accumulation in any order: error bounded by n * eps * sum |terms|.
    double tolerance = 1e-5 * abs_sum[k] + 1e-6;
    if (std::fabs(out[k] - ref[k]) <= tolerance) {
      ++passed;
    } else if (failed++ < 5) {
      std::printf("output %d: got %.7g, want %.7g\n", k, out[k], ref[k]);
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
