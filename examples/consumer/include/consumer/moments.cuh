// The weighted-position update of one sample, kept in a header as real
// projects do: distwar_rewrite_target(... EDIT_HEADERS include) lets the
// tool batch it; without it the header's atomics are reported, not edited.
#ifndef CONSUMER_MOMENTS_CUH
#define CONSUMER_MOMENTS_CUH

// `moments` points at the cell's two moments (x, y): each lane passes the
// pointer of its own cell, so lanes are grouped by that pointer.
__device__ inline void addMoments(float *moments, float w, float2 p) {
  atomicAdd(&moments[0], w * p.x);
  atomicAdd(&moments[1], w * p.y);
}

#endif // CONSUMER_MOMENTS_CUH
