//===- GpuCheck.h - Shared scaffolding of the runtime GPU tests -----------===//
//
// Skipping without a device, a pass/fail tally with the summary line the GPU
// test runner parses, and a host-side watchdog for launches (a kernel that
// hangs is reported and the process exits instead of blocking forever).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_CHECK_H
#define DISTWAR_TEST_GPU_CHECK_H

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace gpucheck {

/// A random gradient value of type T: floats in [-1, 1], ints in
/// [-1000, 1000], 64-bit integers that wrap around when summed.
template <typename T> T randomValue(std::mt19937 &rng) {
  if constexpr (std::is_floating_point<T>::value)
    return static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(rng));
  else if constexpr (std::is_same<T, int>::value)
    return static_cast<int>(rng() % 2001) - 1000;
  else
    return (static_cast<T>(rng()) << 20) ^ static_cast<T>(rng());
}

/// T's name in the tests' case names.
template <typename T> const char *typeName() {
  if (std::is_same<T, float>::value)
    return "float";
  if (std::is_same<T, double>::value)
    return "double";
  if (std::is_same<T, int>::value)
    return "int";
  if (std::is_same<T, unsigned>::value)
    return "unsigned";
  return "ull";
}

/// Exits 0 with the SKIPPED line where no CUDA device is usable.
inline void skipWithoutDevice() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    std::exit(0);
  }
}

inline void require(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    std::printf("FATAL: %s: %s\n", what, cudaGetErrorString(err));
    std::exit(2);
  }
}

/// A new device copy of \p v (cudaMalloc; the caller frees it).
template <typename T> T *upload(const std::vector<T> &v) {
  T *d = nullptr;
  require(cudaMalloc(&d, v.size() * sizeof(T)), "cudaMalloc");
  require(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
          "upload");
  return d;
}

/// The \p n elements at \p d, on the host.
template <typename T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> v(n);
  require(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost),
          "download");
  return v;
}

/// Waits for the device with a deadline; a hang is a failure of the test, so
/// report it and leave (the stuck kernel cannot be cancelled).
inline void waitOrDie(const std::string &what, double seconds = 20.0) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    cudaError_t err = cudaStreamQuery(nullptr);
    if (err == cudaSuccess)
      return;
    if (err != cudaErrorNotReady)
      require(err, what.c_str());
    if (std::chrono::steady_clock::now() > deadline) {
      std::printf("FATAL: %s did not finish within %.0f s (hang)\n",
                  what.c_str(), seconds);
      std::fflush(stdout);
      std::_Exit(3);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

#if defined(__CUDACC__)
/// Runs kernel<<<1, 1>>>(out) with `count` ints of device memory and returns
/// them (the site tests read their thresholds this way).
template <typename Kernel>
std::vector<int> readInts(Kernel kernel, int count, const char *what) {
  int *d = nullptr;
  std::vector<int> h(count, -1);
  require(cudaMalloc(&d, count * sizeof(int)), "cudaMalloc");
  kernel<<<1, 1>>>(d);
  require(cudaMemcpy(h.data(), d, count * sizeof(int), cudaMemcpyDeviceToHost),
          what);
  cudaFree(d);
  return h;
}
#endif

struct Tally {
  int passed = 0;
  int failed = 0;
  int reported = 0;
  void check(bool ok, const std::string &what) {
    if (ok) {
      ++passed;
      return;
    }
    ++failed;
    if (++reported <= 40)
      std::printf("FAIL: %s\n", what.c_str());
  }
  int finish() const {
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
  }
};

} // namespace gpucheck

#endif // DISTWAR_TEST_GPU_CHECK_H
