#include "render/grad.cuh"
__global__ void kernelB(float3 *dmean, float *dop, const int *ids, float3 d,
                        float o) {
  const int id = ids[blockIdx.x];
  addGrad(dmean, dop, id, d, o);
  atomicAdd(&dop[id + 1], o);
}
