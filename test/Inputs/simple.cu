__global__ void k(float *a, float *b, int id, float v) {
  atomicAdd(&a[id], v);
  atomicAdd(&b[id], v);
}
