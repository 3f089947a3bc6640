// Ways a lane leaves its tile other than a return before a barrier, and
// ways the block's place or order hides: each keeps its kernel as written,
// but the last two kernels, whose barriers every lane reaches.
#include <cuda_runtime.h>

// The lanes past the end fall off the kernel while the others wait at the
// barrier: in the loop they would wait at the next tile's barrier instead.
__global__ void fallOff(float *out, const float *in, int n) {
  __shared__ float s[128];
  const int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[127 - threadIdx.x];
  }
}

// A goto past the barrier to a return that every path shares.
__global__ void gotoEnd(float *out, const int *mask) {
  const int i = blockIdx.x * 128 + threadIdx.x;
  if (!mask[i])
    goto done;
  __syncthreads();
  out[i] += 1.0f;
done:
  return;
}

// A lane-dependent break out of a loop whose rounds wait at a barrier.
__global__ void breakOut(float *out, const int *count) {
  const int i = blockIdx.x * 128 + threadIdx.x;
  for (int r = 0; r < 8; ++r) {
    if (r >= count[i])
      break;
    __syncthreads();
    out[i] += 1.0f;
  }
}

// A local whose destructor waits at a barrier, after a lane's return.
struct Fence {
  __device__ ~Fence() { __syncthreads(); }
};
__global__ void destructorBarrier(float *out, const int *mask) {
  const int i = blockIdx.x * 128 + threadIdx.x;
  if (!mask[i])
    return;
  Fence f;
  out[i] += 1.0f;
}

// The lane's own id, written by assembly, decides the return.
__global__ void asmLane(float *out, unsigned limit) {
  unsigned lane = limit; asm("mov.u32 %0, %%laneid;" : "+r"(lane));
  if (lane >= 24u)
    return;
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] += 1.0f;
}

// An override the virtual call reaches is out of sight.
struct Stage {
  __device__ virtual void run(float *p) { p[blockIdx.x] = 0; }
};
__global__ void virtualStage(float *out, Stage *stage) {
  out[blockIdx.x] = 1.0f;
  stage->run(out);
}

// Blocks that spin on another block's flag through assembly, or through a
// load that bypasses the SM's cache.
__global__ void asmSpin(unsigned *flags, float *out) {
  unsigned seen = 0;
  if (blockIdx.x > 0)
    do
      asm volatile("ld.relaxed.gpu.u32 %0, [%1];"
                   : "=r"(seen)
                   : "l"(flags + blockIdx.x - 1));
    while (!seen);
  out[blockIdx.x] = 1.0f;
  flags[blockIdx.x] = 1;
}
__global__ void cacheBypass(const unsigned *flags, float *out) {
  while (blockIdx.x > 0 && !__ldcg(flags + blockIdx.x - 1))
    ;
  out[blockIdx.x] = 1.0f;
}

// The block's place where a local cannot be named: a lambda inside one
// that captures nothing, and a lambda's default argument.
__global__ void nestedLambda(float *out) {
  auto outer = [](float *p) {
    auto inner = [&] { return blockIdx.x; };
    p[inner()] = 1.0f;
  };
  outer(out);
}
__global__ void defaultArgument(float *out) {
  auto at = [&](unsigned b = blockIdx.x) { out[b] = 1.0f; };
  at();
}

// Names the rewrite declares: a label, and a global the body reads.
__global__ void labelled(float *out, int n) {
  const int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= n)
    return;
  out[i] = 1.0f;
distwar_tile_end:;
}
__device__ uint3 distwar_blockIdx;
__global__ void readsGlobal(float *out) {
  out[blockIdx.x] = float(distwar_blockIdx.x);
}

// Balanced: every lane reaches every barrier, the loop's bound a load of
// read-only memory at the tile's place and its break the block's own vote.
__global__ void votedRounds(const uint2 *__restrict__ spans,
                            const int *__restrict__ ids, float *out) {
  __shared__ int batch[128];
  const uint2 span = spans[blockIdx.x];
  const int rounds = (span.y - span.x + 127) / 128;
  bool done = threadIdx.x >= span.y - span.x;
  float sum = 0;
  for (int r = 0; r < rounds; ++r) {
    if (__syncthreads_count(done) == 128)
      break;
    if (span.x + r * 128 + threadIdx.x < span.y)
      batch[threadIdx.x] = ids[span.x + r * 128 + threadIdx.x];
    __syncthreads();
    for (int k = 0; !done && k < 128; ++k)
      sum += batch[k];
    done = sum > 1e6f;
  }
  out[blockIdx.x * 128 + threadIdx.x] = sum;
}

// Balanced, launched from a host function template.
__global__ void fill(float *out) { out[blockIdx.x] = 1.0f; }
template <int W> void fillAll(float *out) { fill<<<4, W>>>(out); }

// Kept: a thread's next tile would start from the parameter it changed.
__global__ void advancesParameter(float *out) {
  out += blockIdx.x * 4;
  out[threadIdx.x] = 1.0f;
}

// Kept: 48 KiB of static shared memory leaves no room for the loop's
// hand-over slots.
__global__ void bigShared(float *out) {
  __shared__ float s[12288];
  s[threadIdx.x] = out[blockIdx.x];
  __syncthreads();
  out[blockIdx.x] = s[0];
}

// Kept: its launch is a call only in the generic lambda's instances.
__global__ void fillGeneric(float *out, float v) { out[blockIdx.x] = v; }
void launchGeneric(float *out) {
  auto each = [](float *o, auto v) { fillGeneric<<<4, 32>>>(o, float(v)); };
  each(out, 1);
  each(out, 2.0);
}

void launchAll(float *out, const float *in, const int *mask, Stage *stage,
               unsigned *flags, const uint2 *spans, const int *ids) {
  fallOff<<<8, 128>>>(out, in, 1000);
  gotoEnd<<<8, 128>>>(out, mask);
  breakOut<<<8, 128>>>(out, mask);
  destructorBarrier<<<8, 128>>>(out, mask);
  asmLane<<<8, 128>>>(out, 0);
  virtualStage<<<8, 1>>>(out, stage);
  asmSpin<<<8, 1>>>(flags, out);
  cacheBypass<<<8, 1>>>(flags, out);
  nestedLambda<<<8, 1>>>(out);
  defaultArgument<<<8, 1>>>(out);
  labelled<<<8, 128>>>(out, 1000);
  readsGlobal<<<8, 1>>>(out);
  votedRounds<<<8, 128>>>(spans, ids, out);
  fillAll<32>(out);
  bigShared<<<8, 128>>>(out);
  advancesParameter<<<8, 4>>>(out);
}
