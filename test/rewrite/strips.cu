// A loop whose every lane adds to the same elements at each iteration (its
// key is the loop's counter, the same in the whole warp) runs two
// iterations per pass, as laps of a lap loop that steps the counter, and
// reduces both laps' fields together (reduceStrip), in a version of the
// loop chosen once for the warp (runStrips). Only where the
// body runs in every lane, never writes the counter nor leaves early, and
// reads nothing the deferred adds may change; otherwise the group keeps one
// butterfly per iteration.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: grep -v "^ *//" %t.cu | %FileCheck %s --check-prefix=OUT
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: %distwar-rewrite --no-cuda-sdk --variant=butterfly %s -- %shim > %t.butterfly.cu
// RUN: grep -v "^ *//" %t.butterfly.cu | grep -c "runStrips(" | %FileCheck %s --check-prefix=BUTTERFLY
// RUN: grep -v "^ *//" %t.serial.cu | not grep -q "Strip"
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.butterfly.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -

// BUTTERFLY: {{^}}4{{$}}

__device__ float weight(int pix, int t) {
  const float d = float(pix - t);
  return 1.f / (1.f + d * d);
}

// Every output texel walks every input texel: the loop steps over two
// iterations, its body runs as two laps, each with the counter redeclared as
// its iteration; a lap past the end leaves the lap loop and then the loop.
// CHECK: group filter#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=3 slots=3 strip{{$}}
// OUT-LABEL: void filter(
// OUT: auto distwar_strips0 = [&](auto distwar_full0) {
// OUT: for (int t = 0; t < n; t += ::distwar::kStripLaps) {
// OUT: ::distwar::Strip<
// OUT: ::distwar::Batch<float, 3, ::distwar::AlwaysSet<0, 3>>,
// OUT: ::distwar::kStripLaps>
// OUT: distwar_strip0;
// OUT: bool distwar_end0 = false;
// OUT: const auto distwar_base0 = t;
// OUT: _Pragma("unroll") for (int distwar_lap0 = 0;
// OUT: distwar_lap0 < ::distwar::kStripLaps;
// OUT: ++distwar_lap0) {
// OUT: const decltype(distwar_base0) t = distwar_base0 + distwar_lap0;
// OUT: if (distwar_lap0 > 0 && !(t < n)) {
// OUT: distwar_end0 = true;
// OUT: break;
// OUT-NOT: distwar_key0
// OUT: distwar_batch0.set(0, &grad[3 * t], g.x * w);
// OUT-NOT: distwar_key0
// OUT: distwar_strip0.keep(distwar_lap0, distwar_batch0);
// OUT: }
// OUT: ::distwar::reduceStrip(distwar_strip0, distwar_full0);
// OUT: if (distwar_end0)
// OUT: break;
// OUT: }
// OUT: };
// OUT: ::distwar::runStrips(DISTWAR_SITE_THRESHOLD(distwar_sites_strips_cu, 0),
// OUT: distwar_strips0);
__global__ void filter(const float3 *__restrict__ dy, float *__restrict__ grad,
                       int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  const float3 g = dy[pix];
  for (int t = 0; t < n; ++t) {
    const float w = weight(pix, t);
    atomicAdd(&grad[3 * t], g.x * w);
    atomicAdd(&grad[3 * t + 1], g.y * w);
    atomicAdd(&grad[3 * t + 2], g.z * w);
  }
}

// Statements after the group stay in the lap; a condition that is not an
// ordering (`!=`) is tested at each lap and never past its first failure;
// a step written `t += 1` counts too.
// CHECK: group after#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1 strip{{$}}
// OUT-LABEL: void after(
// OUT: for (int t = first; t != last; t += ::distwar::kStripLaps) {
// OUT: if (distwar_lap0 > 0 && !(t != last)) {
// OUT: distwar_strip0.keep(distwar_lap0, distwar_batch0);
// OUT: total += w;
// OUT: }
// OUT: ::distwar::reduceStrip(distwar_strip0, distwar_full0);
__global__ void after(float *__restrict__ grad, float *__restrict__ out,
                      int first, int last) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  float total = 0.f;
  for (int t = first; t != last; t += 1) {
    const float w = weight(pix, t);
    atomicAdd(&grad[t], w);
    total += w;
  }
  out[pix] = total;
}

// A counter declared before the loop is seen after it, where a step over
// two iterations would leave another value: no strip.
// CHECK: group outside#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1{{$}}
// OUT-LABEL: void outside(
// OUT-NOT: Strip
// OUT: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
__global__ void outside(float *__restrict__ grad, int *__restrict__ out,
                        int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  int t;
  for (t = 0; t < n; ++t) {
    atomicAdd(&grad[t], weight(pix, t));
  }
  out[pix] = t;
}

// A read of the gradient buffer (not restrict) before the group's first
// add: one iteration's butterfly adds before the next one reads, a strip
// would add after it.
// CHECK: group reads#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1{{$}}
// OUT-LABEL: void reads(
// OUT-NOT: Strip
// OUT: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
__global__ void reads(float *grad, float *out, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  float seen = 0.f;
  for (int t = 0; t < n; ++t) {
    seen += grad[t];
    atomicAdd(&grad[t], weight(pix, t));
  }
  out[pix] = seen;
}

// The body steps the counter itself: no strip.
// CHECK: group skips#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1{{$}}
// OUT-LABEL: void skips(
// OUT-NOT: Strip
// OUT: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
__global__ void skips(float *__restrict__ grad, int n, int stride) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < n; ++t) {
    atomicAdd(&grad[t], weight(pix, t));
    t += stride;
  }
}

// A loop stepping by two is not counted by one, and a body without braces
// is left as it was: no strip.
// CHECK: group evens#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1{{$}}
// CHECK: group evens#1: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1{{$}}
// OUT-LABEL: void evens(
// OUT-NOT: Strip
__global__ void evens(float *__restrict__ grad, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < n; t += 2)
    atomicAdd(&grad[t], weight(pix, t));
  for (int t = 0; t < n; ++t)
    atomicAdd(&grad[t], weight(pix, t));
}

// Lanes leave the iteration early (a flag, not every lane at each
// iteration's add): no strip.
// CHECK: group partial#0: batched (butterfly-uniform{{.*}}) key=t type=float sites=1 slots=1{{$}}
// OUT-LABEL: void partial(
// OUT-NOT: Strip
// OUT: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
__global__ void partial(float *__restrict__ grad, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < n; ++t) {
    if (pix % 3 == t % 3)
      continue;
    atomicAdd(&grad[t], weight(pix, t));
  }
}

// Integer and double fields, and a condition naming a struct's member.
// CHECK: group counts#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=int sites=2 slots=2 strip{{$}}
// CHECK: group counts#1: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=double sites=1 slots=1 strip{{$}}
struct Range {
  int end;
};
__global__ void counts(int *__restrict__ hits, double *__restrict__ sums,
                       Range r) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < r.end; ++t) {
    atomicAdd(&hits[2 * t], 1);
    atomicAdd(&hits[2 * t + 1], pix);
  }
  for (int t = 0; t < r.end; ++t) {
    atomicAdd(&sums[t], double(weight(pix, t)));
  }
}

// The loop runs inside a lambda that runStrips instantiates twice: a loop
// under an unroll pragma (which would then precede the lambda's call), or
// one declaring a static variable (one per version), keeps one butterfly
// per iteration.
// CHECK: group pragma#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1{{$}}
// CHECK: group statics#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=t type=float sites=1 slots=1{{$}}
// OUT-LABEL: void pragma(
// OUT-NOT: Strip
// OUT: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
__global__ void pragma(float *__restrict__ grad, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 2
  for (int t = 0; t < n; ++t) {
    atomicAdd(&grad[t], weight(pix, t));
  }
}
// OUT-LABEL: void statics(
// OUT-NOT: Strip
// OUT: ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
__global__ void statics(float *__restrict__ grad, int n) {
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < n; ++t) {
    static const float scale = 2.f;
    atomicAdd(&grad[t], scale * weight(pix, t));
  }
}
