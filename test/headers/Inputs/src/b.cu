#include "render/grad.cuh"
__global__ void kernelB(float *grads, float *dop, const int *ids, float3 d,
                        float o) {
  const int id = ids[blockIdx.x];
  addGrad(grads + 4 * id, d, o);
  atomicAdd(&dop[id + 1], o);
}
