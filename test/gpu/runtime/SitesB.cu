//===- SitesB.cu - Second TU: the same site name in another table ---------===//
#include <distwar/runtime.cuh>
DISTWAR_SITES(distwar_sites_SitesB_cu, "onlyB#0", "shared#0");

#include "GpuCheck.h"
#include <vector>

namespace {
__global__ void readSites(int *out) {
  out[0] = DISTWAR_SITE_THRESHOLD(distwar_sites_SitesB_cu, 0);
  out[1] = DISTWAR_SITE_THRESHOLD(distwar_sites_SitesB_cu, 1);
}
} // namespace

std::vector<int> readSitesB() {
  return gpucheck::readInts(readSites, 2, "readSitesB");
}
