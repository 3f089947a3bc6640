#include "render/grad.cuh"
#include "other.cuh"
__global__ void kernelA(float3 *dmean, float *dop, float *h, const int *ids,
                        float3 d, float o) {
  const int id = ids[threadIdx.x];
  addGrad(dmean, dop, id, d, twice(o));
  addOther(h, id, o);
  addPair(h, id, o, o);
}
