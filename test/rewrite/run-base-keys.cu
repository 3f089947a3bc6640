// A primitive's channels reached through a per-lane base (a __device__
// function's pointer parameter, which each lane may point elsewhere) in a
// loop whose count is known only at run time are versioned as a texel's
// are: the run of channels is one batch of the loop's trip count, keyed by
// the address of its first channel (the address at the loop variable's
// first value), whatever each lane's base. Lanes whose runs start at one
// address add to the same elements. The address may be written through a
// macro (Pulsar's ATOMICADD); the run-time test and the key repeat the
// macro's argument as written.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: grep -v "^ *//" %t.cu | %FileCheck %s --check-prefix=OUT
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -

#define ATOMICADD(PTR, VAL) atomicAdd((PTR), (VAL))

// A row of a uniform-looking buffer that is a parameter (so per lane), at
// an index the lane computes, through the macro, with a read of the pixel's
// gradient that the run-time test keeps apart from the adds.
// CHECK: group colourRow#0: batched (serial; not butterfly: DW0058 versioned-loop) key=&grad_col[prim * n + ch] type=float sites=1 slots=distwar_trip
// OUT-LABEL: void colourRow(
// OUT: distwar_batch0.set(ch, (&grad_col[prim * n + ch]), (w * g[ch]));
// OUT: ::distwar::reduceSerial(
// OUT: distwar_batch0,
// OUT: [&](const int ch) { return &grad_col[prim * n + ch]; }(0),
// OUT: ::distwar::channelRangesApart(
// OUT: (n), ::distwar::channelHull((n), &grad_col[prim * n + ch]), &(g[ch]));
// OUT: for (int ch = 0; ch < n; ++ch)
// OUT: ATOMICADD(&grad_col[prim * n + ch], w * g[ch]);
__device__ void colourRow(float *grad_col, int prim, int n, float w,
                          const float *g) {
  for (int ch = 0; ch < n; ++ch)
    ATOMICADD(&grad_col[prim * n + ch], w * g[ch]);
}

// The base already offset by the caller (`grad + c`), the loop counting
// from zero with braces: the same batch, keyed by the pointer.
// CHECK: group colourAt#0: batched (serial; not butterfly: DW0058 versioned-loop) key=grad + c type=float sites=1 slots=distwar_trip
// OUT-LABEL: void colourAt(
// OUT: distwar_batch0, [&](const int c) { return grad + c; }(0),
__device__ void colourAt(float *grad, int n, float w) {
  for (int c = 0; c < n; ++c) {
    atomicAdd(grad + c, w);
  }
}

// A channel that strides by the count (`&g[ch * n + prim]`) is not a run:
// each element is its own key, starting plain.
// CHECK: group strided#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=&g[ch * n + prim]
__device__ void strided(float *g, int prim, int n, float w) {
  for (int ch = 0; ch < n; ++ch)
    atomicAdd(&g[ch * n + prim], w);
}

// A loop that changes its base while it runs is not versioned: the key
// would not be the run's first address.
// CHECK: group moving#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=grad + c
__device__ void moving(float *grad, int n, float w) {
  for (int c = 0; c < n; ++c) {
    atomicAdd(grad + c, w);
    grad += 0;
  }
}

struct CamInfo {
  float focal;
  unsigned n_channels;
};

// The count a member of a reference parameter (Pulsar's draw(),
// `c < cam.n_channels` with `const CamInfo &cam`): a load, but the loop
// stores nothing but float adds, which cannot change an unsigned, so the
// count is read once as the loop starts, as its condition would be.
// CHECK: group drawColour#0: batched (serial; not butterfly: DW0058 versioned-loop) key=grad_col + c type=float sites=1 slots=distwar_trip
// OUT-LABEL: void drawColour(
// OUT: distwar_batch0, [&](const unsigned int c) { return grad_col + c; }(0),
// OUT: runChannelVersion(distwar_channels, (cam.n_channels),
// OUT: for (unsigned c = 0; c < cam.n_channels; ++c)
__device__ void drawColour(const CamInfo &cam, float *grad_col,
                           const float *grad_pix, float w) {
  for (unsigned c = 0; c < cam.n_channels; ++c)
    ATOMICADD(grad_col + c, grad_pix[c] * w);
}

// The same loop storing through a pointer as well: that store may be the
// count, so the loop is not versioned.
// CHECK: group drawMarked#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=grad_col + c
__device__ void drawMarked(const CamInfo &cam, float *grad_col,
                           unsigned *mark, float w) {
  for (unsigned c = 0; c < cam.n_channels; ++c) {
    ATOMICADD(grad_col + c, w);
    mark[c] = 1u;
  }
}

// The count a reference to an integer: the same. Through a pointer
// parameter, the count is a read the loop makes at each test and is not
// taken as unchanged: the loop is not versioned.
// CHECK: group drawThroughPointer#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=grad_col + c
// CHECK: group drawCountRef#0: batched (serial; not butterfly: DW0058 versioned-loop) key=grad_col + c
__device__ void drawThroughPointer(const CamInfo *cam, float *grad_col,
                                   float w) {
  for (unsigned c = 0; c < cam->n_channels; ++c)
    ATOMICADD(grad_col + c, w);
}
__device__ void drawCountRef(const int &n, float *grad_col, float w) {
  for (int c = 0; c < n; ++c)
    ATOMICADD(grad_col + c, w);
}

// A pointer the loop moves reads a different count at each test.
// CHECK: group drawMovingCamera#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=grad_col + c
__device__ void drawMovingCamera(const CamInfo *cam, float *grad_col,
                                 float w) {
  for (unsigned c = 0; c < cam->n_channels; ++c) {
    ATOMICADD(grad_col + c, w);
    ++cam;
  }
}

// A character count may be a byte of a float the loop adds to.
// CHECK: group drawByteCount#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=grad_col + c
__device__ void drawByteCount(const unsigned char &n, float *grad_col,
                              float w) {
  for (int c = 0; c < n; ++c)
    ATOMICADD(grad_col + c, w);
}

// A user's function named atomicAdd may store anything, here the count
// (it counts its calls): not versioned.
namespace dbg {
__device__ unsigned calls;
__device__ float atomicAdd(float *p, float v) {
  ++calls;
  return ::atomicAdd(p, v);
}
} // namespace dbg
// CHECK: group drawCountedCalls#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=grad_col + c
__device__ void drawCountedCalls(const unsigned &n, float *grad_col,
                                 float w) {
  for (unsigned c = 0; c < n; ++c) {
    ATOMICADD(grad_col + c, w);
    dbg::atomicAdd(grad_col, 0.f);
  }
}

// Integer adds may be the count itself: not versioned either.
// CHECK: group drawCounts#0: batched (serial; not butterfly: DW0025 trip-count-varies; starts plain: DW0051 element-key-varies) key=hits + c
__device__ void drawCounts(const CamInfo &cam, unsigned *hits) {
  for (unsigned c = 0; c < cam.n_channels; ++c)
    atomicAdd(hits + c, 1u);
}

__global__ void colours(float *gc, const int *__restrict__ prim,
                        const float *__restrict__ dy, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  float g[4] = {dy[pix], dy[pix] + 1.f, dy[pix] + 2.f, dy[pix] + 3.f};
  colourRow(gc, prim[pix], n, 0.5f, g);
  colourAt(gc + prim[pix] * n, n, 0.25f);
  strided(gc, prim[pix], n, 1.f);
  moving(gc + prim[pix] * n, n, 1.f);
  const CamInfo cam{1.f, static_cast<unsigned>(n)};
  drawColour(cam, gc + prim[pix] * n, g, 0.5f);
}
