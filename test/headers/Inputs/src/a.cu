#include "render/grad.cuh"
#include "other.cuh"
__global__ void kernelA(float *grads, float *h, const int *ids, float3 d,
                        float o) {
  const int id = ids[threadIdx.x];
  addGrad(grads + 4 * id, d, twice(o));
  addOther(h, id, o);
  addPair(h + 2 * id, o, o);
}
