__device__ inline float scale(float v) { return 2.f * v; }
