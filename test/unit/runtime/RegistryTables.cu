// Two sites and a launch of the kernel that reads them, wrapped as
// distwar-rewrite wraps it (docs/GENERATED_CODE.md, section 8), for the
// registry tests (RegistryTest.cpp). Compiled by nvcc; run with or without a
// GPU.
#include <distwar/runtime.cuh>

DISTWAR_SITES(distwar_sites_registry_tables_cu, "a#0", "b#0");

__global__ void readBoth(int *out) {
  out[0] = DISTWAR_SITE_THRESHOLD(distwar_sites_registry_tables_cu, 0);
  out[1] = DISTWAR_SITE_THRESHOLD(distwar_sites_registry_tables_cu, 1);
}

void launchReadBoth(int *out, cudaStream_t stream) {
  { static ::distwar::LaunchTuner distwar_tuner0("readBoth", {{&distwar_sites_registry_tables_cu, "a#0"}, {&distwar_sites_registry_tables_cu, "b#0"}}); ::distwar::LaunchTicket distwar_ticket0 = distwar_tuner0.begin(stream); readBoth<<<1, 1, 0, stream>>>(out); distwar_tuner0.end(distwar_ticket0); }
}
