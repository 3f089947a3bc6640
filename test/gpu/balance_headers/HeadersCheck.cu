// A GPU check of --balance=tiles on kernels of edited headers (run.sh says
// how to run it): the plain render() and the rewritten one, each built
// alone, run on the same seeded inputs three times; the plain run writes
// every output buffer to a file, the rewritten run compares with it.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

void render(float *out, const float *in, float *grad, const int *ids,
            const float *v, int rows, int width, int n, cudaStream_t stream);

int main(int argc, char **argv) {
  const int rows = 333, width = 517, n = 200000, keys = 1000;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> k(0, keys - 1);
  std::vector<float> in(rows * width), v(n);
  std::vector<int> ids(n);
  for (float &x : in) x = u(rng);
  for (float &x : v) x = u(rng);
  for (int &x : ids) x = k(rng);
  float *dOut, *dIn, *dGrad, *dV; int *dIds;
  cudaMalloc(&dOut, in.size() * 4); cudaMalloc(&dIn, in.size() * 4);
  cudaMalloc(&dGrad, keys * 2 * 4); cudaMalloc(&dV, n * 4); cudaMalloc(&dIds, n * 4);
  cudaMemcpy(dIn, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dV, v.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dIds, ids.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemset(dGrad, 0, keys * 2 * 4);
  cudaMemset(dOut, 0xff, in.size() * 4); // poison
  std::vector<float> out(in.size()), grad(keys * 2);
  int passed = 0, failed = 0;
  for (int launch = 0; launch < 3; ++launch) {
    render(dOut, dIn, dGrad, dIds, dV, rows, width, n, 0);
    if (cudaDeviceSynchronize() != cudaSuccess) { std::printf("launch failed\n"); return 1; }
  }
  cudaMemcpy(out.data(), dOut, out.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(grad.data(), dGrad, grad.size() * 4, cudaMemcpyDeviceToHost);
  if (argc > 2) { // compare with the plain run's files
    std::vector<float> refOut(out.size()), refGrad(grad.size());
    FILE *f = std::fopen(argv[2], "rb");
    if (!f || std::fread(refOut.data(), 4, refOut.size(), f) != refOut.size() ||
        std::fread(refGrad.data(), 4, refGrad.size(), f) != refGrad.size()) { std::printf("no reference\n"); return 1; }
    std::fclose(f);
    size_t bad = 0;
    for (size_t i = 0; i < out.size(); ++i) bad += !(out[i] == refOut[i]);
    (bad ? failed : passed)++;
    std::printf("out (blurRows, clearRows, halo, edges): %zu of %zu elements differ (bit for bit)\n", bad, out.size());
    double err = 0, norm = 0;
    for (size_t i = 0; i < grad.size(); ++i) {
      if (!std::isfinite(grad[i])) err = INFINITY;
      err += double(grad[i] - refGrad[i]) * (grad[i] - refGrad[i]);
      norm += double(refGrad[i]) * refGrad[i];
    }
    const double rel = std::sqrt(err / norm);
    (rel < 1e-5 ? passed : failed)++;
    std::printf("grad (accumulate, batched and balanced): relative L2 %.3g\n", rel);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
  }
  FILE *f = std::fopen(argv[1], "wb");
  std::fwrite(out.data(), 4, out.size(), f);
  std::fwrite(grad.data(), 4, grad.size(), f);
  std::fclose(f);
  std::printf("wrote %s\n", argv[1]);
  return 0;
}
