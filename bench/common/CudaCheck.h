//===- CudaCheck.h - CUDA error checks and transfers for benchmarks -*- C++ -*-===//
//
// What every standalone benchmark program under bench/ needs: stop on a CUDA
// error with its place, copy a host vector to a new device buffer and back,
// and compare a variant's outputs with plain's within plain's own spread.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_BENCH_CUDA_CHECK_H
#define DISTWAR_BENCH_CUDA_CHECK_H

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(X)                                                               \
  do {                                                                         \
    cudaError_t Err_ = (X);                                                    \
    if (Err_ != cudaSuccess) {                                                 \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(Err_),        \
                  __FILE__, __LINE__);                                         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

template <typename T> T *upload(const std::vector<T> &H) {
  T *D;
  CHECK(cudaMalloc(&D, H.size() * sizeof(T)));
  CHECK(cudaMemcpy(D, H.data(), H.size() * sizeof(T), cudaMemcpyHostToDevice));
  return D;
}

inline std::vector<float> download(const float *D, size_t N) {
  std::vector<float> H(N);
  CHECK(cudaMemcpy(H.data(), D, N * sizeof(float), cudaMemcpyDeviceToHost));
  return H;
}

/// Compares \p Got with \p Plain value by value; the tolerance is four times
/// the spread between two plain runs (\p Plain and \p Again: float sums in
/// another order), at least 1e-5 of the largest value. Prints one line and
/// returns the number of values outside it.
inline size_t countMismatches(const std::vector<float> &Plain,
                              const std::vector<float> &Again,
                              const std::vector<float> &Got,
                              const char *Name) {
  double Spread = 0, Scale = 0, Worst = 0;
  for (size_t I = 0; I < Plain.size(); ++I) {
    Spread = std::max(Spread, double(std::fabs(Plain[I] - Again[I])));
    Scale = std::max(Scale, double(std::fabs(Plain[I])));
  }
  const double Tol = std::max(4 * Spread, 1e-5 * Scale);
  size_t Bad = 0, WorstAt = 0;
  for (size_t I = 0; I < Plain.size(); ++I) {
    const double Err = std::fabs(double(Got[I]) - Plain[I]);
    Bad += !(Err <= Tol);
    if (!(Err <= Worst)) {
      Worst = Err;
      WorstAt = I;
    }
  }
  std::printf("check %s: %zu values, max |%s - plain| = %.3g at %zu "
              "(tolerance %.3g from plain's own spread %.3g)\n",
              Name, Plain.size(), Name, Worst, WorstAt, Tol, Spread);
  return Bad;
}

#endif
