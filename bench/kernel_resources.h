// The resources of the kernels that a host launcher starts, read without
// running them. The launchers hide their kernels (some are distwar-rewrite's
// output, some templates chosen at run time), so one call is captured into a
// CUDA graph instead: its kernel nodes name each kernel and its launch
// configuration. The graph is destroyed unlaunched.
//
// A capture stops the online search of a rewritten launcher's
// distwar::LaunchTuner for good (distwar/launch.h): query a launcher only
// after its last timed run.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dwk_bench {

// One kernel launch: what the compiler gave the kernel, what the launch asks
// for, and the occupancy that follows.
struct KernelResources {
  std::string name;              // demangled where possible
  int registers = 0;             // per thread
  size_t localBytes = 0;         // per thread: spills and local arrays
  size_t sharedBytes = 0;        // static, per block
  size_t dynamicSharedBytes = 0; // per block, as launched
  int threads = 0;               // per block
  int blocksPerSM = 0;           // resident at most (theoretical)
  double occupancy = 0;          // active warps / maximum warps per SM
  std::string error;             // why the kernel could not be queried
};

// The kernels of one launcher call in launch order, or why the capture
// failed (error; kernels then empty).
struct LaunchResources {
  std::vector<KernelResources> kernels;
  std::string error;
};

// Captures one call of `launch` on a non-blocking stream of its own, in
// relaxed mode, and queries its kernels on the current device. Runs no
// kernel and never exits: every CUDA error, and an exception of the
// launcher, is reported in the result and cleared.
LaunchResources
queryLaunchResources(const std::function<void(cudaStream_t)> &launch);

} // namespace dwk_bench
