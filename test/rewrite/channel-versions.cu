// A loop over a texel's channels whose count is known only at run time
// (`tex + texel + c` for `c < channels`) is versioned: a generic lambda runs
// it with the count a constant for 1 to 4 channels, the texel the key and
// the channels the batch's fields, marked Consecutive (a warp issues the
// sums lane after lane), the corners reduced together (one match and one
// tree where their keys agree); the loop as written runs for the other
// counts. The versions defer the adds past the loop's own reads, so where a
// read may be of a destination a run-time test keeps its byte range apart
// from the adds' (else the loop runs as written). Loops the versions cannot
// copy (they leave early, change their bound, wait at a barrier) are left
// as they were. A loop with one group reduces it alone.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: grep -v "^ *//" %t.cu | %FileCheck %s --check-prefix=OUT
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: %distwar-rewrite --no-cuda-sdk --variant=butterfly %s -- %shim > %t.butterfly.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.butterfly.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -

struct Texture {
  float *grad;
  const float *tex;
  int channels;
};

// Two corners and a read of the texture itself in the loop: both corners'
// adds are tested against the texture's and dy's ranges.
// CHECK: group corners#0: batched (serial; not butterfly: DW0058 versioned-loop) key=t0 type=float sites=1 slots=distwar_trip{{$}}
// CHECK: group corners#1: batched (serial; not butterfly: DW0058 versioned-loop) key=t1 type=float sites=1 slots=distwar_trip reduced-with=corners#0{{$}}
// OUT-LABEL: void corners(
// OUT: auto distwar_channels = [&](auto distwar_count) {
// OUT: constexpr int distwar_trip = decltype(distwar_count)::value;
// OUT-COUNT-2: ::distwar::Consecutive>
// OUT: for (int c = 0; c < distwar_trip; ++c) {
// OUT: distwar_batch0.set(c, p.grad + t0 + c, d * w0);
// OUT: distwar_batch1.set(c, p.grad + t1 + c, d * w1);
// OUT: ::distwar::reduceSerialTogether(
// OUT: ::distwar::serialPart(
// OUT: distwar_batch0, t0,
// OUT: ::distwar::serialPart(
// OUT: distwar_batch1, t1,
// OUT: const bool distwar_apart = [&](const int c) {
// OUT: return ::distwar::channelRangesApart(
// OUT: (p.channels),
// OUT: ::distwar::channelHull((p.channels), p.grad + t0 + c,
// OUT: p.grad + t1 + c),
// OUT: &(dy[pix * p.channels + c]), &(p.tex[t0 + c]));
// OUT: }(0);
// OUT: if (!::distwar::runChannelVersion(distwar_channels, (p.channels),
// OUT: distwar_apart))
// OUT: #line [[#@LINE+8]]
// OUT: for (int c = 0; c < p.channels; ++c) {
// OUT: atomicAdd(p.grad + t0 + c, d * w0);
__global__ void corners(Texture p, const int *texel, const float *dy,
                        float w0, float w1, float *out) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  const int t0 = texel[pix], t1 = t0 + p.channels;
  float sum = 0.f;
  for (int c = 0; c < p.channels; ++c) {
    const float d = dy[pix * p.channels + c];
    sum += d * p.tex[t0 + c];
    atomicAdd(p.grad + t0 + c, d * w0);
    atomicAdd(p.grad + t1 + c, d * w1);
  }
  out[pix] = sum;
}

// Nothing in the loop reads memory the adds could reach (restrict): no
// run-time test.
// CHECK: group restricted#0: batched (serial; not butterfly: DW0058 versioned-loop) key=t type=float sites=1 slots=distwar_trip{{$}}
// OUT-LABEL: void restricted(
// OUT-NOT: reduceSerialTogether
// OUT-NOT: distwar_apart
// OUT: if (!::distwar::runChannelVersion(distwar_channels, (n)))
__global__ void restricted(float *__restrict__ grad,
                           const float *__restrict__ dy,
                           const int *__restrict__ texel, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = texel[pix];
  for (int c = 0; c < n; ++c)
    atomicAdd(&grad[t + c], dy[pix * n + c]);
}

// Loops that are not versioned: the element stays its own key, left alone
// in auto (DW0051).
// CHECK: group leaves@[[#@LINE+6]]: unchanged {{.*}}[DW0051 element-key-varies
__global__ void leaves(float *grad, const float *dy, const int *texel, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < n; ++c) {
    if (dy[c] < 0.f)
      break;
    atomicAdd(grad + texel[pix] + c, dy[c]);
  }
}

// CHECK: group boundChanges@[[#@LINE+5]]: unchanged {{.*}}[DW0051 element-key-varies
__global__ void boundChanges(float *grad, const float *dy, const int *texel,
                             int n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  for (int c = 0; c < n; ++c) {
    atomicAdd(grad + t + c, dy[c]);
    n -= dy[c] > 1.f;
  }
}

// CHECK: group barrier@[[#@LINE+6]]: unchanged {{.*}}[DW0051 element-key-varies
__global__ void barrier(float *grad, const float *dy, const int *texel,
                        int n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  for (int c = 0; c < n; ++c) {
    __syncthreads();
    atomicAdd(grad + t + c, dy[c]);
  }
}

// CHECK: group boundThroughPointer@[[#@LINE+5]]: unchanged {{.*}}[DW0051 element-key-varies
__global__ void boundThroughPointer(float *grad, const float *dy,
                                    const int *texel, const int *n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  for (int c = 0; c < *n; ++c)
    atomicAdd(grad + t + c, dy[c]);
}

// CHECK: group notInBlock@[[#@LINE+6]]: unchanged {{.*}}[DW0051 element-key-varies
__global__ void notInBlock(float *grad, const float *dy, const int *texel,
                           int n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  if (t >= 0)
    for (int c = 0; c < n; ++c)
      atomicAdd(grad + t + c, dy[c]);
}

// A key read through a pointer cannot be evaluated before the loop for the
// test (it may be out of range where the atomic's condition is false).
// CHECK: group keyLoads@[[#@LINE+4]]: unchanged {{.*}}[DW0051 element-key-varies
__global__ void keyLoads(float *grad, const float *dy, const int *texel, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < n; ++c)
    atomicAdd(grad + texel[pix] + c, dy[c]);
}

// Versionable, but the loop reads the destination itself, or reads in a way
// the test cannot bound (a stride of two): deferring is refused.
// CHECK: group readsDestination@[[#@LINE+7]]: unchanged {{.*}}[DW0010 buffer-accessed-between
__global__ void readsDestination(float *grad, const float *dy,
                                 const int *texel, int n, float *out) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  float s = 0.f;
  for (int c = 0; c < n; ++c) {
    s += grad[t + c];
    atomicAdd(grad + t + c, dy[c]);
  }
  out[0] = s;
}
// CHECK: group strided@[[#@LINE+4]]: unchanged {{.*}}[DW0047 read-may-alias
__global__ void strided(float *grad, const float *dy, const int *texel, int n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  for (int c = 0; c < n; ++c)
    atomicAdd(grad + t + c, dy[2 * c]);
}

// A group with an add outside the loop (the same texel) would reach out of
// its version: left alone.
// CHECK: group outside@[[#@LINE+4]]: unchanged {{.*}}[DW0058 versioned-loop
__global__ void outside(float *__restrict__ grad, const float *__restrict__ dy,
                        const int *__restrict__ texel, int n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(grad + t + 7, 1.f);
  for (int c = 0; c < n; ++c)
    atomicAdd(grad + t + c, dy[c]);
}

// The run-time test repeats each address's and read's text: an atomic
// written in a macro leaves its group alone (a texel keyed by its index;
// a per-lane run is spelled from the macro's expansion), a read spelled by
// a whole macro invocation is repeated as written.
#define ADD_CHANNEL(buf, t, c, v) atomicAdd((buf) + (t) + (c), (v))
// CHECK: group macroAdd@[[#@LINE+6]]: unchanged {{.*}}[DW0058 versioned-loop
__global__ void macroAdd(float *__restrict__ grad,
                         const float *__restrict__ dy,
                         const int *__restrict__ texel, int n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  for (int c = 0; c < n; ++c) {
    ADD_CHANNEL(grad, t, c, dy[c]);
  }
}
#define READ_CHANNEL(p, c) (p)[c]
// CHECK: group macroRead#0: batched (serial; not butterfly: DW0058 versioned-loop) key=t type=float sites=1 slots=distwar_trip
__global__ void macroRead(float *grad, const float *dy, const int *texel,
                          int n) {
  const int t = texel[blockIdx.x * blockDim.x + threadIdx.x];
  for (int c = 0; c < n; ++c)
    atomicAdd(grad + t + c, READ_CHANNEL(dy, c));
}
