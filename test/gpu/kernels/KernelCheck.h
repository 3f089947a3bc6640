//===- KernelCheck.h - Shared scaffolding of the kernel tests ---*- C++ -*-===//
//
// What the GPU tests of the reference kernels (kernels_test.cpp,
// balance_test.cpp) share: the skip without a device, the command line
// ([--small] [seed]) with the line that reproduces a run, a pass/fail tally
// with the summary line the test runner reads, and strided views of the
// fields of downloaded outputs (vector-typed ones flattened first).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_KERNEL_CHECK_H
#define DISTWAR_TEST_GPU_KERNEL_CHECK_H

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace kernelcheck {

/// Exits 0 with the SKIPPED line where the machine has no CUDA device.
inline void skipWithoutDevice() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    std::exit(0);
  }
}

/// The command line: [--small] [seed]. --small checks the tiny scenes only,
/// for compute-sanitizer runs; without a seed, each run draws fresh inputs.
struct Args {
  bool small = false;
  uint64_t seed = 0;
};

/// Reads the command line and prints the seed with the command that repeats
/// the run.
inline Args parseArgs(int argc, char **argv) {
  Args args;
  args.seed =
      uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0)
      args.small = true;
    else
      args.seed = std::strtoull(argv[i], nullptr, 0);
  }
  std::printf("seed %llu (rerun: %s%s %llu)\n", (unsigned long long)args.seed,
              argv[0], args.small ? " --small" : "",
              (unsigned long long)args.seed);
  return args;
}

inline int passed = 0, failed = 0;

/// Counts one check; prints \p what where it failed.
inline void expect(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

/// Prints the tally; returns the exit status: 0 where every check passed.
inline int summary() {
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

/// A strided view of one field: element i is data[i * stride + offset].
template <typename T> struct Field {
  const std::vector<T> *data;
  size_t stride, offset;
  size_t size() const { return data->size() / stride; }
  double operator[](size_t i) const {
    return double((*data)[i * stride + offset]);
  }
};

template <typename T>
Field<T> field(const std::vector<T> &v, size_t stride = 1, size_t offset = 0) {
  return Field<T>{&v, stride, offset};
}

/// The components of vector-typed elements one after the other, for Field's
/// strides.
inline std::vector<float> flat(const std::vector<float3> &v) {
  std::vector<float> out;
  for (const float3 &e : v)
    out.insert(out.end(), {e.x, e.y, e.z});
  return out;
}
inline std::vector<float> flat(const std::vector<float4> &v) {
  std::vector<float> out;
  for (const float4 &e : v)
    out.insert(out.end(), {e.x, e.y, e.z, e.w});
  return out;
}

} // namespace kernelcheck

#endif
