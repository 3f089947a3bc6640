// The 3DGS backward with its channels a template parameter (`C`) and a
// second per-lane `continue` between the colour and the geometry
// gradients: one batch and one reduction per Gaussian, the geometry fields
// LaneSet slots, as with a literal channel count (continue-mid-group.cu).
// Whether C + 6 fields fit one batch is read off every instantiation; a
// template never instantiated keeps its two reductions.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// REPORT-DAG: group backward#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=7 slots=C + 6
// REPORT-DAG: group wide#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=C
// REPORT-DAG: group wide#1: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=6 slots=6
// REPORT-DAG: group never#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=1 slots=C
// REPORT-DAG: group never#1: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=6 slots=6
// CHECK-LABEL: __global__ void backward(
// CHECK: ::distwar::Fields<float,
// CHECK: C + 6,
// CHECK: ::distwar::AlwaysSet<0,
// CHECK: C + 0>,
// CHECK: ::distwar::LaneSet<C + 0,
// CHECK: C + 6>>
// CHECK: distwar_batch0;
// CHECK: distwar_reached0 = true;
// CHECK: distwar_batch0.set(C + 5, &dopacity[id], g);
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch0,
// CHECK: distwar_reached0,
// CHECK-NOT: distwar_batch1
// CHECK-LABEL: __global__ void wide(
template <int C>
__global__ void backward(const int *point_list, int n,
                         const float2 *__restrict__ pts,
                         const float *__restrict__ dout, float2 *dmean2D,
                         float4 *dconic, float *dopacity, float *dcolors) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; j++) {
    const int id = point_list[j];
    const float2 d = pts[id];
    const float dchannel = dout[tid];
    if (dchannel > 0.9f) {
      continue;
    }
    const float alpha = dchannel * d.x;
    if (alpha < 1.0f / 255.0f) {
      continue;
    }
    for (int ch = 0; ch < C; ch++)
      atomicAdd(&dcolors[id * C + ch], alpha * ch);
    const float g = alpha * dchannel;
    if (g > 0.5f) {
      continue;
    }
    atomicAdd(&dmean2D[id].x, g * d.x);
    atomicAdd(&dmean2D[id].y, g * d.y);
    atomicAdd(&dconic[id].x, -0.5f * g * d.x * d.x);
    atomicAdd(&dconic[id].y, -0.5f * g * d.x * d.y);
    atomicAdd(&dconic[id].w, -0.5f * g * d.y * d.y);
    atomicAdd(&dopacity[id], g);
  }
}
template __global__ void backward<3>(const int *, int, const float2 *,
                                     const float *, float2 *, float4 *,
                                     float *, float *);

// One instantiation has 30 channels: 36 fields do not fit one batch.
template <int C>
__global__ void wide(const int *point_list, int n, const float *__restrict__ w,
                     float2 *dmean2D, float4 *dconic, float *dopacity,
                     float *dcolors) {
  for (int j = 0; j < n; j++) {
    const int id = point_list[j];
    const float g = w[j * 256 + threadIdx.x];
    for (int ch = 0; ch < C; ch++)
      atomicAdd(&dcolors[id * C + ch], g * ch);
    if (g > 0.5f)
      continue;
    atomicAdd(&dmean2D[id].x, g);
    atomicAdd(&dmean2D[id].y, g);
    atomicAdd(&dconic[id].x, g);
    atomicAdd(&dconic[id].y, g);
    atomicAdd(&dconic[id].w, g);
    atomicAdd(&dopacity[id], g);
  }
}
template __global__ void wide<3>(const int *, int, const float *, float2 *,
                                 float4 *, float *, float *);
template __global__ void wide<30>(const int *, int, const float *, float2 *,
                                  float4 *, float *, float *);

// Never instantiated: its channel count is not known.
template <int C>
__global__ void never(const int *point_list, int n, const float *__restrict__ w,
                      float2 *dmean2D, float4 *dconic, float *dopacity,
                      float *dcolors) {
  for (int j = 0; j < n; j++) {
    const int id = point_list[j];
    const float g = w[j * 256 + threadIdx.x];
    for (int ch = 0; ch < C; ch++)
      atomicAdd(&dcolors[id * C + ch], g * ch);
    if (g > 0.5f)
      continue;
    atomicAdd(&dmean2D[id].x, g);
    atomicAdd(&dmean2D[id].y, g);
    atomicAdd(&dconic[id].x, g);
    atomicAdd(&dconic[id].y, g);
    atomicAdd(&dconic[id].w, g);
    atomicAdd(&dopacity[id], g);
  }
}
