//===- autotune.cpp - CUDA glue of the threshold autotuner ----------------===//

#include "distwar/autotune.h"
#include "distwar/sites.h"

#include <stdexcept>

namespace distwar {
namespace {

void check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("distwar autotune: ") + what + ": " +
                             cudaGetErrorString(err));
}

int currentDevice() {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

} // namespace

/// Snapshot memory and events of one device.
struct KernelTuner::Scratch {
  void *saved = nullptr;
  size_t capacity = 0;
  std::vector<cudaEvent_t> events;

  ~Scratch() {
    // Destructors must not throw; failures here only leak.
    cudaFree(saved);
    for (cudaEvent_t e : events)
      cudaEventDestroy(e);
  }
  void reserve(size_t bytes) {
    if (bytes <= capacity)
      return;
    check(cudaFree(saved), "cudaFree");
    saved = nullptr;
    capacity = 0;
    check(cudaMalloc(&saved, bytes), "cudaMalloc (snapshot of outputs)");
    capacity = bytes;
  }
  cudaEvent_t event(size_t i) {
    while (events.size() <= i) {
      cudaEvent_t e;
      check(cudaEventCreate(&e), "cudaEventCreate");
      events.push_back(e);
    }
    return events[i];
  }
};

class KernelTuner::Runner final : public TrialRunner {
public:
  Runner(KernelTuner &owner, int device, cudaStream_t stream,
         const std::vector<DeviceBuffer> &outputs,
         const std::function<void()> &launchFn)
      : owner(owner), device(device), stream(stream), outputs(outputs),
        launchFn(launchFn) {}

  // Sites the environment set keep their value (detail::writeThreshold).
  void setThreshold(int t) override {
    if (owner.sites.empty()) {
      detail::writeThreshold(nullptr, t, stream, /*async=*/true,
                             ThresholdOrigin::kKernelTuner);
      return;
    }
    for (const std::string &name : owner.sites)
      detail::writeThreshold(&name, t, stream, /*async=*/true,
                             ThresholdOrigin::kKernelTuner);
  }

  void launch() override {
    launchFn();
    check(cudaGetLastError(), "kernel launch");
  }

  void beginTuning() override {
    Scratch &s = scratch();
    size_t total = 0;
    for (const DeviceBuffer &b : outputs)
      total += b.bytes;
    s.reserve(total);
    check(cudaEventRecord(s.event(0), stream), "cudaEventRecord");
    copyOutputs(/*save=*/true);
    launched = false;
  }

  std::vector<double>
  timedLaunches(const std::vector<int> &thresholds) override {
    Scratch &s = scratch();
    for (size_t i = 0; i < thresholds.size(); ++i) {
      if (launched)
        copyOutputs(/*save=*/false);
      setThreshold(thresholds[i]);
      check(cudaEventRecord(s.event(2 + 2 * i), stream), "cudaEventRecord");
      launch();
      check(cudaEventRecord(s.event(3 + 2 * i), stream), "cudaEventRecord");
      launched = true;
    }
    std::vector<double> ms(thresholds.size());
    if (thresholds.empty())
      return ms;
    check(cudaEventSynchronize(s.event(1 + 2 * thresholds.size())),
          "cudaEventSynchronize");
    for (size_t i = 0; i < thresholds.size(); ++i) {
      float elapsed = 0;
      check(cudaEventElapsedTime(&elapsed, s.event(2 + 2 * i),
                                 s.event(3 + 2 * i)),
            "cudaEventElapsedTime");
      ms[i] = elapsed;
    }
    return ms;
  }

  double endTuning() override {
    Scratch &s = scratch();
    check(cudaEventRecord(s.event(1), stream), "cudaEventRecord");
    check(cudaEventSynchronize(s.event(1)), "cudaEventSynchronize");
    float elapsed = 0;
    check(cudaEventElapsedTime(&elapsed, s.event(0), s.event(1)),
          "cudaEventElapsedTime");
    return elapsed;
  }

private:
  Scratch &scratch() {
    std::unique_ptr<Scratch> &s = owner.scratch[device];
    if (!s)
      s = std::make_unique<Scratch>();
    return *s;
  }

  void copyOutputs(bool save) {
    char *base = static_cast<char *>(scratch().saved);
    size_t offset = 0;
    for (const DeviceBuffer &b : outputs) {
      void *dst = save ? static_cast<void *>(base + offset) : b.ptr;
      const void *src = save ? static_cast<const void *>(b.ptr)
                             : static_cast<const void *>(base + offset);
      check(
          cudaMemcpyAsync(dst, src, b.bytes, cudaMemcpyDeviceToDevice, stream),
          save ? "saving outputs" : "restoring outputs");
      offset += b.bytes;
    }
  }

  KernelTuner &owner;
  int device;
  cudaStream_t stream;
  const std::vector<DeviceBuffer> &outputs;
  const std::function<void()> &launchFn;
  bool launched = false;
};

KernelTuner::KernelTuner(std::vector<std::string> sites, TunerOptions options)
    : sites(std::move(sites)), core(options) {}

KernelTuner::~KernelTuner() = default;

void KernelTuner::run(cudaStream_t stream,
                      const std::vector<DeviceBuffer> &outputs,
                      const std::function<void()> &launch) {
  const int device = currentDevice();
  Runner runner(*this, device, stream, outputs, launch);
  // The launches inside leave the thresholds to this tuner (distwar/launch.h).
  struct Depth {
    Depth() { ++detail::kernelTunerDepth(); }
    ~Depth() { --detail::kernelTunerDepth(); }
  } depth;
  core.call(device, runner);
}

TunerStats KernelTuner::stats() const { return core.stats(currentDevice()); }

} // namespace distwar
