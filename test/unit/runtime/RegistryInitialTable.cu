// A table whose sites start elsewhere than 0, as distwar-rewrite writes it
// for a site that starts plain (docs/GENERATED_CODE.md, section 2b), for the
// registry tests (RegistryTest.cpp). Kept out of the shared object that
// RegistryTables.cu also builds, whose report counts its sites.
#include <distwar/runtime.cuh>

DISTWAR_SITES_INITIAL(distwar_sites_registry_initial_cu, (33, 0), "c#0",
                      "d#0");

__global__ void readInitial(int *out) {
  out[0] = DISTWAR_SITE_THRESHOLD(distwar_sites_registry_initial_cu, 0);
  out[1] = DISTWAR_SITE_THRESHOLD(distwar_sites_registry_initial_cu, 1);
}

void launchReadInitial(int *out, cudaStream_t stream) {
  readInitial<<<1, 1, 0, stream>>>(out);
}
