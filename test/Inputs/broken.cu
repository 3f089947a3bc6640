__global__ void k(float *a, int id, float v) {
  atomicAdd(&a[id], v)
}
