#include "grad.cuh"

void launch(float *g, float *h, const int *id, const float *v) {
  addAll<<<1, 32>>>(g, h, id, v);
}
