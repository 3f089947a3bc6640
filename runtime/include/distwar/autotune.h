//===- distwar/autotune.h - Threshold autotuner for CUDA launches --------===//
//
// Wraps a kernel launch so that its sites' thresholds are tuned as DISTWAR
// describes (distwar/tuning.h): usable from plain CUDA C++ and from a PyTorch
// C++ extension (pass at::cuda::getCurrentCUDAStream() and the data pointers
// of the gradient tensors; no PyTorch dependency).
//
//   static distwar::KernelTuner tuner({"renderCUDA#0"});
//   tuner.run(stream, {{dL_dcolors, bytes}, ...},
//             [&] { renderBackward<<<grid, block, 0, stream>>>(...); });
//
// `outputs` must list every buffer the launch writes: they are saved before
// the trials and restored before each trial but the first, so a tuning call
// leaves exactly the outputs of one launch. The copies need scratch device
// memory of their total size, kept per device until the tuner is destroyed.
// Thresholds are per device (the current device at run()). Environment:
// DISTWAR_THRESHOLD, DISTWAR_AUTOTUNE, DISTWAR_AUTOTUNE_INTERVAL,
// DISTWAR_AUTOTUNE_SEARCH (see applyEnvironment).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_AUTOTUNE_H
#define DISTWAR_AUTOTUNE_H

#include "distwar/tuning.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace distwar {

struct DeviceBuffer {
  void *ptr;
  size_t bytes;
};

class KernelTuner {
public:
  /// `sites`: the site names whose thresholds this launch reads (all take the
  /// tuned value); empty: every registered site.
  explicit KernelTuner(std::vector<std::string> sites = {},
                       TunerOptions options = applyEnvironment(TunerOptions()));
  ~KernelTuner();
  KernelTuner(const KernelTuner &) = delete;
  KernelTuner &operator=(const KernelTuner &) = delete;

  /// Calls `launch` (which enqueues on `stream`) once, or, when a tuning is
  /// due, once per candidate threshold with `outputs` restored in between.
  void run(cudaStream_t stream, const std::vector<DeviceBuffer> &outputs,
           const std::function<void()> &launch);

  /// Statistics on the current device.
  TunerStats stats() const;
  Autotuner &tuner() { return core; }

private:
  struct Scratch;
  class Runner;
  std::vector<std::string> sites;
  Autotuner core;
  std::map<int, std::unique_ptr<Scratch>> scratch; // guarded by core's calls
};

} // namespace distwar

#endif // DISTWAR_AUTOTUNE_H
