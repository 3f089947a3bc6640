//===- VariantLaunchTest.cu - A launch keeps its fastest kernel variant ---===//
//
// distwar::VariantLauncher on real launches: three kernels that write the
// same output and spin for different times (variant 2 the shortest). Every
// launch's output must be complete (each launch writes a fresh value into
// poisoned memory), the launcher must settle on variant 2 after its search,
// and then switch when the costs change (variant 0 becomes the shortest)
// within a few re-checks (DISTWAR_AUTOTUNE_INTERVAL is set to 50 here before
// the registry reads it). Its report line must name the choice.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"

#include <distwar/variant_launch.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kElements = 4096;

__global__ void spinAndWrite(int *out, int value, long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kElements)
    out[i] = value;
}

} // namespace

int main() {
  gpucheck::skipWithoutDevice();
  setenv("DISTWAR_AUTOTUNE_INTERVAL", "50", 1);
  unsetenv("DISTWAR_AUTOTUNE");
  gpucheck::Tally tally;
  int *out = nullptr;
  gpucheck::require(cudaMalloc(&out, kElements * sizeof(int)), "cudaMalloc");
  static distwar::VariantLauncher launcher("spin", {"slow", "medium", "fast"});
  long long cost[3] = {200000, 120000, 40000};
  int incomplete = 0;
  auto launchMany = [&](int n, int first) {
    for (int i = 0; i < n; ++i) {
      const int value = first + i;
      gpucheck::require(cudaMemsetAsync(out, 0xFF, kElements * sizeof(int)),
                        "poison");
      launcher.run(nullptr, [&](int v) {
        spinAndWrite<<<kElements / 256, 256>>>(out, value, cost[v]);
      });
      gpucheck::require(cudaGetLastError(), "launch");
      if (i % 16 == 0) {
        gpucheck::waitOrDie("variant launch");
        for (int x : gpucheck::download(out, kElements))
          incomplete += x != value;
      }
    }
    gpucheck::waitOrDie("variant launches");
  };
  launchMany(150, 0);
  tally.check(incomplete == 0, "outputs of the launches: " +
                                   std::to_string(incomplete) + " wrong");
  tally.check(launcher.variant() == 2,
              "settles on the fastest variant, not " +
                  std::to_string(launcher.variant()));
  const std::string report = launcher.report();
  tally.check(report.find("\"choice\": \"spin\"") != std::string::npos &&
                  report.find("\"variant\": \"fast\", \"how\": \"tuned\"") !=
                      std::string::npos,
              "report: " + report);
  // The data changes: the slow variant is now the fastest.
  cost[0] = 20000;
  launchMany(600, 1000);
  tally.check(launcher.variant() == 0,
              "follows the change to variant 0, not " +
                  std::to_string(launcher.variant()) + "; " +
                  launcher.report());
  cudaFree(out);
  return tally.finish();
}
