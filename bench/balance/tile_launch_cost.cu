//===- tile_launch_cost.cu - Host time of tileLaunch per launch -----------===//
//
// What a launch rewritten by --balance=tiles costs the host besides the
// launch itself: tileLaunch's bookkeeping once its mode is chosen, against
// a plain launch and the CUDA calls that bookkeeping makes. Prints
// microseconds per call (20,000 calls each; the stream drained every 64
// launches so that its queue never fills).
//
//===----------------------------------------------------------------------===//

#include <distwar/tiles.cuh>

#include <chrono>
#include <cstdio>

namespace {

/// A kernel as --balance=tiles writes one.
template <bool Dynamic>
__global__ void marked(distwar::TileQueue *queue, unsigned tiles, dim3 grid,
                       int *out) {
  for (distwar::TileCursor<Dynamic> c(queue, tiles); c.more(); c.next()) {
    const uint3 block = c.index(grid);
    if (threadIdx.x == 0)
      out[block.x] = 1;
  }
}

__global__ void plain(int *out) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = 1;
}

constexpr int kCalls = 20000;
const dim3 kGrid(512), kBlock(64);

template <typename F> double microsecondsPerCall(F &&call) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i)
    call(i);
  const auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(end - start).count() /
         kCalls;
}

void launchMarked(cudaStream_t stream, int *out) {
  const distwar::TileLaunch l =
      distwar::tileLaunch(marked<true>, kGrid, kBlock, 0, stream);
  auto *const kernel = l.dynamic() ? marked<true> : marked<false>;
  kernel<<<l.grid, l.block, l.shared, l.stream>>>(l.queue, l.tiles, l.original,
                                                  out);
}

} // namespace

int main() {
  int *out = nullptr;
  cudaStream_t stream = nullptr;
  if (cudaMalloc(&out, kGrid.x * sizeof(int)) != cudaSuccess ||
      cudaStreamCreate(&stream) != cudaSuccess) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  // Let the mode choice settle first.
  for (int i = 0; i < 3000; ++i) {
    launchMarked(stream, out);
    if (i % 16 == 15)
      cudaStreamSynchronize(stream);
  }
  cudaStreamSynchronize(stream);
  auto drain = [&](int i) {
    if (i % 64 == 63)
      cudaStreamSynchronize(stream);
  };
  cudaStreamCaptureStatus status;
  int device = 0;
  std::printf("cudaStreamIsCapturing   %.3f us\n",
              microsecondsPerCall(
                  [&](int) { cudaStreamIsCapturing(stream, &status); }));
  std::printf("cudaGetDevice           %.3f us\n",
              microsecondsPerCall([&](int) { cudaGetDevice(&device); }));
  std::printf("plain launch            %.3f us\n",
              microsecondsPerCall([&](int i) {
                plain<<<kGrid, kBlock, 0, stream>>>(out);
                drain(i);
              }));
  std::printf("tileLaunch and launch   %.3f us\n",
              microsecondsPerCall([&](int i) {
                launchMarked(stream, out);
                drain(i);
              }));
  std::printf("tileLaunch alone        %.3f us\n",
              microsecondsPerCall([&](int) {
                const distwar::TileLaunch l =
                    distwar::tileLaunch(marked<true>, kGrid, kBlock, 0, stream);
                (void)l;
              }));
  cudaStreamSynchronize(stream);
  for (const std::string &line : distwar::tileModeReport())
    std::printf("%s\n", line.c_str());
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
