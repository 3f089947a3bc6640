//===- SitesA.cu - First of two rewritten-style TUs with site tables ------===//
#include <distwar/runtime.cuh>
DISTWAR_SITES(distwar_sites_SitesA_cu, "shared#0", "onlyA#0");

#include "GpuCheck.h"
#include <vector>

namespace {
__global__ void readSites(int *out) {
  out[0] = DISTWAR_SITE_THRESHOLD(distwar_sites_SitesA_cu, 0);
  out[1] = DISTWAR_SITE_THRESHOLD(distwar_sites_SitesA_cu, 1);
}

// Adds 1 to every slot through a reduction at site "shared#0", so that the
// tuner test can count launches exactly whatever threshold is in force.
__global__ void countLaunch(unsigned long long *counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  distwar::Batch<unsigned long long, 1> b;
  const bool active = i < n;
  if (active)
    b.set(0, &counts[i / 32], 1ull);
  distwar::reduceButterfly(b, active, i / 32,
                           DISTWAR_SITE_THRESHOLD(distwar_sites_SitesA_cu, 0));
}
} // namespace

std::vector<int> readSitesA() {
  return gpucheck::readInts(readSites, 2, "readSitesA");
}

void launchCount(unsigned long long *counts, int n, cudaStream_t stream) {
  countLaunch<<<(n + 127) / 128, 128, 0, stream>>>(counts, n);
}
