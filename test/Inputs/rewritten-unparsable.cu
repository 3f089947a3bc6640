#include <distwar/no_such_header.cuh> // distwar-rewrite: batched gradient reductions
DISTWAR_SITES(distwar_sites_x_cu, "k#0");
#line 1 "/somewhere/x.cu"
__global__ void k(float *a, int id, float v) {
  ::distwar::Batch<float, 1> distwar_batch0; distwar_batch0.set(0, &a[id], v); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_x_cu, 0));
}
