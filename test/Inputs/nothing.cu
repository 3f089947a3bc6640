__global__ void k(float *a, int id, float v) { a[id] = v; }
