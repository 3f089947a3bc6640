// A loop whose iterations skip with continue: the formatted output puts the
// flag, the guards and the reduction on lines of their own.
__global__ void splat(float *grad_xy, float *grad_w, const int *ids,
                      const float *w, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const float a = w[tid * 64 + j];
    if (a < 0.01f)
      continue;
    const int id = ids[j];
    atomicAdd(&grad_xy[2 * id + 0], a);
    atomicAdd(&grad_xy[2 * id + 1], 2.f * a);
    atomicAdd(&grad_w[id], a * a);
  }
#ifdef DISTWAR_TEST_ERROR
#error "line 16"
#endif
}
