// The weighted-position update of one sample, kept in a header as real
// projects do: distwar_rewrite_target(... EDIT_HEADERS include) lets the
// tool batch it; without it the header's atomics are reported, not edited.
#ifndef CONSUMER_MOMENTS_CUH
#define CONSUMER_MOMENTS_CUH

__device__ inline void addMoments(float *moment_x, float *moment_y, int c,
                                  float w, float2 p) {
  atomicAdd(&moment_x[c], w * p.x);
  atomicAdd(&moment_y[c], w * p.y);
}

#endif // CONSUMER_MOMENTS_CUH
