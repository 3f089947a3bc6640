__device__ inline float offset(float v) { return v + 1.f; }
