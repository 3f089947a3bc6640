// The cost kernel copies the body's first declarations after the kernel:
// where a name or a macro means something else there, the tiles are drawn
// in launch order instead (balanced, not ordered). `ordered` is the control.
#include <cuda_runtime.h>

__global__ void ordered(const int *__restrict__ len, float *out) {
  const int n = len[blockIdx.x];
  for (int i = 0; i < n; ++i)
    out[blockIdx.x] += 1.0f;
}

#define ROW 4
__global__ void macroUndefined(const int *__restrict__ len, float *out) {
  const int n = len[blockIdx.x * ROW];
  for (int i = 0; i < n; ++i)
    out[blockIdx.x] += 1.0f;
#undef ROW
}

constexpr int kStride = 1 << 20;
namespace narrow {
constexpr int kStride = 1;
}
__global__ void usingHides(const int *__restrict__ len, float *out) {
  using narrow::kStride;
  const int n = len[blockIdx.x * kStride];
  for (int i = 0; i < n; ++i)
    out[blockIdx.x] += 1.0f;
}

__global__ void localEnum(const int *__restrict__ len, float *out) {
  enum { kStep = 2 };
  const int n = len[blockIdx.x * kStep];
  for (int i = 0; i < n; ++i)
    out[blockIdx.x] += 1.0f;
}

void launchAll(const int *len, float *out) {
  ordered<<<8, 32>>>(len, out);
  macroUndefined<<<8, 32>>>(len, out);
  usingHides<<<8, 32>>>(len, out);
  localEnum<<<8, 32>>>(len, out);
}
