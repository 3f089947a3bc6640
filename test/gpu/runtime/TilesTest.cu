//===- TilesTest.cu - Every tile of a pool runs exactly once per launch ---===//
//
// distwar::forEachTile on one TileQueue, launch after launch with no host
// reset in between: each tile's body adds its tile's weight to a per-tile
// count, and after every launch each count must equal the number of
// launches. Grids of one block, a few blocks, the resident maximum
// (persistentBlocks) and more blocks than tiles; 0, 1, a few and many tiles;
// blocks of one warp and of 16x16 threads (a body that uses the block
// barrier); bodies of very different costs (a heavy tile among light ones,
// so that the blocks draw different numbers of tiles). After all launches
// the queue must be back to zero, and a queue left dirty on purpose must be
// emptied by reset(). Then a kernel written as distwar-rewrite --balance=tiles
// writes one (a TileCursor loop, the tile's place from tileIndex, a `goto`
// for `return`), launched through tileLaunch again and again on a 2D grid:
// both of the launch's modes (dynamic tiles, one tile per block) must run,
// each tile once per launch in either, and the choice must be in the report.
// Next, the same launches drawing their tiles heaviest first (a cost
// kernel that orders them too): each tile once per launch, the order a
// permutation, heaviest first. Then what tileLaunch must leave as the
// original launch: configurations no device launches (the same error, no
// tile written, nothing thrown), a dynamic instance whose shared memory
// does not fit where the original's does (it runs), launches captured into
// a CUDA graph on a stream with no pool yet, or an ordered pool too small
// (the capture valid, its replays counting as the plain kernel's launches;
// a graph captured on a pool still replays so after the pool grew).
// `--small` runs a subset for compute-sanitizer.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"

#include <distwar/tiles.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace {

/// Spins for about `cycles` clock cycles (a tile's cost).
__device__ void work(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

/// Each tile adds 1 to counts[tile] once per block: thread 0 adds after a
/// barrier that every thread of the block reaches inside the body.
__global__ void countTiles(distwar::TileQueue *queue, unsigned tiles,
                           unsigned *counts, unsigned heavy) {
  __shared__ unsigned seen;
  distwar::forEachTile(queue, tiles, [&](unsigned tile) {
    if (threadIdx.x == 0 && threadIdx.y == 0)
      seen = tile;
    __syncthreads();
    if (seen != tile)
      atomicAdd(&counts[tiles], 1u); // threads disagree: reported as tile n
    work(tile == heavy ? 200000 : 2000);
    if (threadIdx.x == 0 && threadIdx.y == 0)
      atomicAdd(&counts[tile], 1u);
  });
}

struct Case {
  unsigned tiles;
  unsigned blocks; // 0: persistentBlocks
  dim3 threads;
  int launches;
};

std::string describe(const Case &c, unsigned blocks) {
  return std::to_string(c.tiles) + " tiles, " + std::to_string(blocks) +
         " blocks of " + std::to_string(c.threads.x * c.threads.y) +
         " threads, " + std::to_string(c.launches) + " launches";
}

void runCase(gpucheck::Tally &tally, const Case &c) {
  distwar::TileQueueOwner queue;
  unsigned *counts = nullptr;
  gpucheck::require(cudaMalloc(&counts, (c.tiles + 1) * sizeof(unsigned)),
                    "cudaMalloc");
  gpucheck::require(cudaMemset(counts, 0, (c.tiles + 1) * sizeof(unsigned)),
                    "cudaMemset");
  const int threads = int(c.threads.x * c.threads.y);
  const unsigned blocks =
      c.blocks ? c.blocks
               : distwar::persistentBlocks(countTiles, threads, 0, c.tiles);
  const std::string what = describe(c, blocks);
  for (int launch = 1; launch <= c.launches; ++launch) {
    countTiles<<<blocks, c.threads>>>(queue.get(), c.tiles, counts,
                                      c.tiles / 3);
    gpucheck::require(cudaGetLastError(), "launch");
    gpucheck::waitOrDie(what);
    const std::vector<unsigned> got = gpucheck::download(counts, c.tiles + 1);
    size_t wrong = 0;
    for (unsigned t = 0; t < c.tiles; ++t)
      wrong += got[t] != unsigned(launch);
    tally.check(wrong == 0, what + ": after launch " + std::to_string(launch) +
                                ", " + std::to_string(wrong) +
                                " tiles not run exactly once per launch");
    tally.check(got[c.tiles] == 0,
                what + ": threads of a block saw different tiles");
  }
  const std::vector<distwar::TileQueue> state =
      gpucheck::download(queue.get(), 1);
  tally.check(state[0].drawn == 0 && state[0].finished == 0,
              what + ": queue not empty after the launches");
  cudaFree(counts);
}

/// A dirty queue (as a launch that failed midway leaves it) skips tiles;
/// reset() empties it.
void checkReset(gpucheck::Tally &tally) {
  distwar::TileQueueOwner queue;
  const distwar::TileQueue dirty{5, 3};
  gpucheck::require(cudaMemcpy(queue.get(), &dirty, sizeof dirty,
                               cudaMemcpyHostToDevice),
                    "dirty the queue");
  queue.reset(nullptr);
  const unsigned tiles = 100;
  unsigned *counts = nullptr;
  gpucheck::require(cudaMalloc(&counts, (tiles + 1) * sizeof(unsigned)),
                    "cudaMalloc");
  gpucheck::require(cudaMemset(counts, 0, (tiles + 1) * sizeof(unsigned)),
                    "cudaMemset");
  countTiles<<<4, 32>>>(queue.get(), tiles, counts, tiles);
  gpucheck::require(cudaGetLastError(), "launch");
  gpucheck::waitOrDie("reset");
  const std::vector<unsigned> got = gpucheck::download(counts, tiles);
  size_t wrong = 0;
  for (unsigned v : got)
    wrong += v != 1;
  tally.check(wrong == 0, "after reset(): " + std::to_string(wrong) +
                              " tiles not run exactly once");
  cudaFree(counts);
}

/// countTiles as the rewriter writes a kernel: the mode a template
/// parameter, the body in a TileCursor loop, blockIdx from the tile, an
/// early `return` as a jump to the end.
/// (`Copy`: another kernel, with a tile mode choice of its own.)
template <bool Dynamic, int Copy = 0>
__global__ void countCursorTiles(distwar::TileQueue *queue, unsigned tiles,
                                 dim3 grid, unsigned *counts, unsigned heavy) {
  for (distwar::TileCursor<Dynamic> cursor(queue, tiles); cursor.more();
       cursor.next()) {
    const uint3 index = cursor.index(grid);
    {
      const unsigned tile = index.x + grid.x * index.y;
      if (threadIdx.x % 3 == 1)
        goto tile_end;
      work(tile == heavy ? 100000 : 1000);
      if (threadIdx.x == 0)
        atomicAdd(&counts[tile], 1u);
    }
  tile_end:;
  }
}

/// tileLaunch's two modes on one launch statement, as its choice moves.
void checkLaunchModes(gpucheck::Tally &tally, int launches) {
  const dim3 grid(37, 11);
  const unsigned tiles = grid.x * grid.y;
  unsigned *counts = nullptr;
  gpucheck::require(cudaMalloc(&counts, tiles * sizeof(unsigned)),
                    "cudaMalloc");
  gpucheck::require(cudaMemset(counts, 0, tiles * sizeof(unsigned)),
                    "cudaMemset");
  int seen[2] = {0, 0};
  for (int launch = 1; launch <= launches; ++launch) {
    {
      const distwar::TileLaunch l = distwar::tileLaunch(
          countCursorTiles<true>, grid, dim3(64), 0, nullptr);
      ++seen[static_cast<int>(l.mode())];
      // Every third launch of the one-tile mode runs the dynamic instance
      // without a pool, as a kernel of C linkage does.
      auto *const kernel = l.dynamic() || launch % 3 == 0
                               ? countCursorTiles<true>
                               : countCursorTiles<false>;
      kernel<<<l.grid, l.block, l.shared, l.stream>>>(l.queue, l.tiles,
                                                      l.original, counts,
                                                      tiles / 2);
    }
    gpucheck::require(cudaGetLastError(), "tileLaunch");
    gpucheck::waitOrDie("tileLaunch");
    const std::vector<unsigned> got = gpucheck::download(counts, tiles);
    size_t wrong = 0;
    for (unsigned v : got)
      wrong += v != unsigned(launch);
    tally.check(wrong == 0, "tileLaunch, launch " + std::to_string(launch) +
                                ": " + std::to_string(wrong) +
                                " tiles not run exactly once per launch");
  }
  tally.check(seen[0] > 0 && seen[1] > 0,
              "tileLaunch ran dynamic tiles " + std::to_string(seen[0]) +
                  " times and one tile per block " + std::to_string(seen[1]) +
                  " times: both modes should run");
  std::string line;
  for (const std::string &l : distwar::tileModeReport())
    if (l.find("tiles of (anonymous namespace)::countCursorTiles<true, 0>\"") !=
        std::string::npos)
      line = l;
  std::printf("  %s\n", line.c_str());
  tally.check(!line.empty(), "no report line for the tile mode choice");
  cudaFree(counts);
}

/// A cost kernel as distwar-rewrite writes one: one block, each thread
/// taking every blockDim.x-th tile, its place from tileIndex, the cost of
/// countCursorTiles' work there; then the block orders the tiles.
__global__ void __launch_bounds__(distwar::kTileCostThreads)
    countCursorCosts(unsigned *costs, unsigned *order, unsigned tiles,
                     dim3 grid, unsigned heavy) {
  for (unsigned t = threadIdx.x; t < tiles; t += blockDim.x) {
    const uint3 index = distwar::tileIndex(t, grid);
    const unsigned tile = index.x + grid.x * index.y;
    costs[t] = distwar::tileCost(0, tile == heavy ? 100000 : tile % 7);
  }
  distwar::orderTilesByCost(costs, tiles, order);
}

/// Launches drawing their tiles heaviest first: every tile still runs once
/// per launch, and the pool's order is a permutation of the tiles, the
/// heavy one first, then costs 6, 5, ..., 0 (each a bucket of its own).
void checkOrderedLaunches(gpucheck::Tally &tally, int launches) {
  // More tiles than the cost kernel's threads: a thread takes several.
  const dim3 grid(47, 23);
  const unsigned tiles = grid.x * grid.y, heavy = tiles / 3;
  unsigned *counts = nullptr;
  gpucheck::require(cudaMalloc(&counts, tiles * sizeof(unsigned)),
                    "cudaMalloc");
  gpucheck::require(cudaMemset(counts, 0, tiles * sizeof(unsigned)),
                    "cudaMemset");
  int ordered = 0;
  for (int launch = 1; launch <= launches; ++launch) {
    std::vector<unsigned> order;
    {
      const distwar::TileLaunch l = distwar::tileLaunch(
          countCursorTiles<true, 1>, grid, dim3(64), 0, nullptr, true);
      auto *const kernel = l.dynamic() ? countCursorTiles<true, 1>
                                       : countCursorTiles<false, 1>;
      if (l.ordered()) {
        countCursorCosts<<<l.costGrid(), l.costBlock(), 0, l.stream>>>(
            l.costs, l.order, l.tiles, l.original, heavy);
        ++ordered;
      }
      kernel<<<l.grid, l.block, l.shared, l.stream>>>(l.queue, l.tiles,
                                                      l.original, counts,
                                                      heavy);
      gpucheck::require(cudaGetLastError(), "ordered tileLaunch");
      gpucheck::waitOrDie("ordered tileLaunch");
      if (l.ordered())
        order = gpucheck::download(l.order, tiles);
    }
    const std::vector<unsigned> got = gpucheck::download(counts, tiles);
    size_t wrong = 0;
    for (unsigned v : got)
      wrong += v != unsigned(launch);
    tally.check(wrong == 0, "ordered tileLaunch, launch " +
                                std::to_string(launch) + ": " +
                                std::to_string(wrong) +
                                " tiles not run exactly once per launch");
    if (order.empty())
      continue;
    std::vector<unsigned> sorted(order), every(tiles);
    std::sort(sorted.begin(), sorted.end());
    std::iota(every.begin(), every.end(), 0u);
    tally.check(sorted == every,
                "ordered tileLaunch: the order is not a permutation");
    bool descending = order[0] == heavy;
    for (unsigned i = 1; i < tiles; ++i)
      if (order[i] != heavy && order[i - 1] != heavy)
        descending &= order[i - 1] % 7 >= order[i] % 7;
    tally.check(descending,
                "ordered tileLaunch: the order is not heaviest first");
  }
  tally.check(ordered > 0, "no ordered launch ran dynamic tiles");
  cudaFree(counts);
}

/// Waits for what \p ready says is done (a stream's or an event's query),
/// with a deadline, as gpucheck::waitOrDie does for the legacy stream (which
/// a non-blocking stream's work is not part of).
template <typename Query>
void waitForOrDie(const Query &ready, const std::string &what,
                  double seconds = 20.0) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    const cudaError_t err = ready();
    if (err == cudaSuccess)
      return;
    if (err != cudaErrorNotReady)
      gpucheck::require(err, what.c_str());
    if (std::chrono::steady_clock::now() > deadline) {
      std::printf("FATAL: %s did not finish within %.0f s (hang)\n",
                  what.c_str(), seconds);
      std::fflush(stdout);
      std::_Exit(3);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

void waitStreamOrDie(cudaStream_t stream, const std::string &what) {
  waitForOrDie([stream] { return cudaStreamQuery(stream); }, what);
}

/// \p n zeroed counts in device memory (the caller frees them).
unsigned *zeroedCounts(size_t n) {
  unsigned *counts = nullptr;
  gpucheck::require(cudaMalloc(&counts, n * sizeof(unsigned)), "cudaMalloc");
  gpucheck::require(cudaMemset(counts, 0, n * sizeof(unsigned)), "cudaMemset");
  return counts;
}

/// Each block marks its tile (its place in the grid, x fastest) once, where
/// it is below `n`: as the rewriter writes a kernel, and as written.
template <bool Dynamic>
__global__ void markTiles(distwar::TileQueue *queue, unsigned tiles,
                          dim3 grid, unsigned *marks, unsigned n) {
  for (distwar::TileCursor<Dynamic> cursor(queue, tiles); cursor.more();
       cursor.next()) {
    const uint3 index = cursor.index(grid);
    const unsigned long long tile =
        index.x + 1ull * grid.x * (index.y + 1ull * grid.y * index.z);
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0 && tile < n)
      atomicAdd(&marks[tile], 1u);
  }
}
__global__ void markPlain(unsigned *marks, unsigned n) {
  const unsigned long long tile =
      blockIdx.x +
      1ull * gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
  if (threadIdx.x + threadIdx.y + threadIdx.z == 0 && tile < n)
    atomicAdd(&marks[tile], 1u);
}

/// Launches the original cannot make fail through tileLaunch with the
/// original's error, in one tile per block, and write nothing; none throws.
void checkFailingLaunches(gpucheck::Tally &tally) {
  struct Bad {
    dim3 grid, block;
    const char *what;
  };
  const Bad bad[] = {
      {dim3(2, 70000), dim3(32), "grid.y = 70000"},
      {dim3(2, 1, 70000), dim3(32), "grid.z = 70000"},
      {dim3(1u << 31), dim3(32), "grid.x = 2^31"},
      {dim3(64), dim3(0), "0 threads"},
      {dim3(64), dim3(32, 0), "block.y = 0"},
      {dim3(64), dim3(1025), "1025 threads"},
      {dim3(64), dim3(2048, 1), "block.x = 2048"},
      {dim3(64), dim3(1, 1, 65), "block.z = 65"},
      {dim3(64), dim3(32, 33), "32 x 33 threads"},
  };
  const unsigned n = 1u << 18;
  unsigned *marks = zeroedCounts(n);
  for (const Bad &b : bad) {
    const std::string what = std::string("failing launch, ") + b.what;
    markPlain<<<b.grid, b.block>>>(marks, n);
    const cudaError_t original = cudaGetLastError();
    cudaError_t tiled = cudaSuccess;
    bool dynamic = false;
    try {
      const distwar::TileLaunch l = distwar::tileLaunch(
          markTiles<true>, b.grid, b.block, 0, nullptr);
      dynamic = l.dynamic();
      auto *const kernel = l.dynamic() ? markTiles<true> : markTiles<false>;
      kernel<<<l.grid, l.block, l.shared, l.stream>>>(l.queue, l.tiles,
                                                      l.original, marks, n);
      tiled = cudaGetLastError();
    } catch (const std::exception &e) {
      tally.check(false, what + ": tileLaunch threw: " + e.what());
      continue;
    }
    gpucheck::waitOrDie(what);
    tally.check(original != cudaSuccess,
                what + ": the original launch did not fail");
    tally.check(tiled == original,
                what + ": the tiled launch gave " +
                    cudaGetErrorName(tiled) + ", the original " +
                    cudaGetErrorName(original));
    tally.check(!dynamic, what + ": launched with dynamic tiles");
    const std::vector<unsigned> got = gpucheck::download(marks, n);
    tally.check(std::all_of(got.begin(), got.end(),
                            [](unsigned v) { return v == 0; }),
                what + ": a tile was written");
  }
  cudaFree(marks);
}

/// Each block stages its tile in dynamic shared memory and marks it.
template <bool Dynamic>
__global__ void markShared(distwar::TileQueue *queue, unsigned tiles,
                           dim3 grid, unsigned *marks) {
  extern __shared__ unsigned staged[];
  for (distwar::TileCursor<Dynamic> cursor(queue, tiles); cursor.more();
       cursor.next()) {
    staged[threadIdx.x] = cursor.index(grid).x;
    if (threadIdx.x == 0)
      atomicAdd(&marks[staged[0]], 1u);
  }
}

/// A launch whose dynamic instance does not fit where the original does
/// (the original takes all the shared memory a block may without opting
/// in; the dynamic instance has its hand-over slots on top) runs one tile
/// per block, every tile once, with no error.
void checkDynamicDoesNotFit(gpucheck::Tally &tally) {
  const std::string what = "dynamic instance does not fit";
  int device = 0, perBlock = 0;
  gpucheck::require(cudaGetDevice(&device), "cudaGetDevice");
  gpucheck::require(cudaDeviceGetAttribute(
                        &perBlock, cudaDevAttrMaxSharedMemoryPerBlock, device),
                    "cudaDeviceGetAttribute");
  cudaFuncAttributes plain{}, dynamic{};
  gpucheck::require(cudaFuncGetAttributes(&plain, markShared<false>),
                    "cudaFuncGetAttributes");
  gpucheck::require(cudaFuncGetAttributes(&dynamic, markShared<true>),
                    "cudaFuncGetAttributes");
  tally.check(dynamic.sharedSizeBytes > plain.sharedSizeBytes,
              what + ": the dynamic instance has no more static shared "
                     "memory than the original (" +
                  std::to_string(dynamic.sharedSizeBytes) + " bytes)");
  const size_t shared = size_t(perBlock) - plain.sharedSizeBytes;
  const dim3 grid(300), block(128);
  unsigned *marks = zeroedCounts(grid.x);
  // The premise: the dynamic instance fails to launch with this much.
  markShared<true><<<1, block, shared>>>(nullptr, 0, grid, marks);
  tally.check(cudaGetLastError() != cudaSuccess,
              what + ": the dynamic instance launched");
  markShared<false><<<grid, block, shared>>>(nullptr, grid.x, grid, marks);
  gpucheck::require(cudaGetLastError(), "the original launch");
  try {
    const distwar::TileLaunch l =
        distwar::tileLaunch(markShared<true>, grid, block, shared, nullptr);
    tally.check(!l.dynamic(), what + ": launched with dynamic tiles");
    auto *const kernel = l.dynamic() ? markShared<true> : markShared<false>;
    kernel<<<l.grid, l.block, l.shared, l.stream>>>(l.queue, l.tiles,
                                                    l.original, marks);
    const cudaError_t err = cudaGetLastError();
    tally.check(err == cudaSuccess,
                what + ": the tiled launch failed: " + cudaGetErrorName(err));
  } catch (const std::exception &e) {
    tally.check(false, what + ": tileLaunch threw: " + e.what());
  }
  gpucheck::waitOrDie(what);
  const std::vector<unsigned> got = gpucheck::download(marks, grid.x);
  size_t wrong = 0;
  for (unsigned v : got)
    wrong += v != 2;
  tally.check(wrong == 0, what + ": " + std::to_string(wrong) +
                              " tiles not run once per launch");
  cudaFree(marks);
}

/// countCursorTiles as written: block b runs tile b.
__global__ void countPlainTiles(unsigned *counts, unsigned heavy) {
  const unsigned tile = blockIdx.x + gridDim.x * blockIdx.y;
  if (threadIdx.x % 3 == 1)
    return;
  work(tile == heavy ? 100000 : 1000);
  if (threadIdx.x == 0)
    atomicAdd(&counts[tile], 1u);
}

/// What \p times launches of countPlainTiles on \p grid count.
std::vector<unsigned> plainCounts(dim3 grid, int times) {
  const unsigned tiles = grid.x * grid.y;
  unsigned *counts = zeroedCounts(tiles);
  for (int i = 0; i < times; ++i)
    countPlainTiles<<<grid, 64>>>(counts, tiles / 3);
  gpucheck::require(cudaGetLastError(), "countPlainTiles");
  gpucheck::waitOrDie("countPlainTiles");
  std::vector<unsigned> got = gpucheck::download(counts, tiles);
  cudaFree(counts);
  return got;
}

/// How a launch through tileLaunch went.
struct Launched {
  bool dynamic = false, ordered = false;
};

/// One launch of countCursorTiles<true, Copy> on \p grid through tileLaunch,
/// as distwar-rewrite writes it: the instance of the mode chosen, a cost
/// kernel first where the launch is ordered.
template <int Copy>
Launched launchCounting(dim3 grid, cudaStream_t stream, bool ordered,
                        unsigned *counts) {
  const distwar::TileLaunch l = distwar::tileLaunch(
      countCursorTiles<true, Copy>, grid, dim3(64), 0, stream, ordered);
  const unsigned heavy = l.tiles / 3;
  auto *const kernel = l.dynamic() ? countCursorTiles<true, Copy>
                                   : countCursorTiles<false, Copy>;
  if (l.ordered())
    countCursorCosts<<<l.costGrid(), l.costBlock(), 0, l.stream>>>(
        l.costs, l.order, l.tiles, l.original, heavy);
  kernel<<<l.grid, l.block, l.shared, l.stream>>>(l.queue, l.tiles,
                                                  l.original, counts, heavy);
  return Launched{l.dynamic(), l.ordered()};
}

/// A capture on \p stream of \p capture(), instantiated; null, reported,
/// where the capture failed.
template <typename Capture>
cudaGraphExec_t captureGraph(gpucheck::Tally &tally, cudaStream_t stream,
                             const std::string &what, const Capture &capture) {
  gpucheck::require(
      cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal),
      "cudaStreamBeginCapture");
  try {
    capture();
  } catch (const std::exception &e) {
    tally.check(false, what + ": threw during the capture: " + e.what());
  }
  const cudaError_t launched = cudaGetLastError();
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  tally.check(launched == cudaSuccess && ended == cudaSuccess,
              what + ": the capture failed: " + cudaGetErrorName(launched) +
                  ", " + cudaGetErrorName(ended));
  cudaGraphExec_t exec = nullptr;
  if (ended == cudaSuccess &&
      cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) {
    tally.check(false, what + ": cudaGraphInstantiate failed");
    exec = nullptr;
  }
  if (graph)
    cudaGraphDestroy(graph);
  cudaGetLastError();
  return exec;
}

/// Replays \p exec \p times times on \p stream and waits.
void replay(cudaGraphExec_t exec, cudaStream_t stream, int times,
            const std::string &what) {
  for (int i = 0; i < times && exec; ++i)
    gpucheck::require(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
  waitStreamOrDie(stream, what);
}

void checkCounts(gpucheck::Tally &tally, const unsigned *counts, dim3 grid,
                 int times, const std::string &what) {
  const std::vector<unsigned> got =
      gpucheck::download(counts, grid.x * grid.y);
  const std::vector<unsigned> want = plainCounts(grid, times);
  size_t wrong = 0;
  for (size_t t = 0; t < got.size(); ++t)
    wrong += got[t] != want[t];
  tally.check(wrong == 0, what + ": " + std::to_string(wrong) +
                              " tiles counted otherwise than by " +
                              std::to_string(times) +
                              " launches of the plain kernel");
}

/// Launches captured into a CUDA graph on a stream that has no pool yet:
/// one tile per block, the capture valid, each replay counting as the plain
/// kernel's launches; then, the pool made by a launch outside the capture,
/// a captured launch with dynamic tiles on it, replayed.
void checkCapturedFirstLaunch(gpucheck::Tally &tally) {
  const dim3 grid(37, 11);
  cudaStream_t stream = nullptr;
  gpucheck::require(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                    "cudaStreamCreate");
  unsigned *counts = zeroedCounts(grid.x * grid.y);
  const std::string first = "captured first launch";
  Launched a, b;
  cudaGraphExec_t exec = captureGraph(tally, stream, first, [&] {
    a = launchCounting<2>(grid, stream, false, counts);
    b = launchCounting<2>(grid, stream, false, counts);
  });
  tally.check(!a.dynamic && !b.dynamic,
              first + ": launched with dynamic tiles, and no pool");
  replay(exec, stream, 3, first);
  checkCounts(tally, counts, grid, 6, first);
  if (exec)
    cudaGraphExecDestroy(exec);

  const std::string pooled = "captured launch on a pool";
  gpucheck::require(cudaMemset(counts, 0, grid.x * grid.y * sizeof(unsigned)),
                    "cudaMemset");
  const Launched made = launchCounting<2>(grid, stream, false, counts);
  gpucheck::require(cudaGetLastError(), "tileLaunch");
  waitStreamOrDie(stream, pooled);
  Launched c;
  exec = captureGraph(tally, stream, pooled, [&] {
    c = launchCounting<2>(grid, stream, false, counts);
  });
  tally.check(!made.dynamic || c.dynamic,
              pooled + ": the pool exists, but the launch took none");
  replay(exec, stream, 4, pooled);
  checkCounts(tally, counts, grid, 5, pooled);
  if (exec)
    cudaGraphExecDestroy(exec);
  cudaFree(counts);
  cudaStreamDestroy(stream);
}

/// Ordered launches captured into a CUDA graph: one with more tiles than
/// the stream's ordered pool has room for runs one tile per block without
/// a cost kernel; one that fits runs on the pool, and its graph still
/// replays as the plain kernel after a later launch outside the capture
/// grew the pool.
void checkCapturedOrderedLaunches(gpucheck::Tally &tally) {
  const dim3 small(10, 10), large(47, 47);
  cudaStream_t stream = nullptr;
  gpucheck::require(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                    "cudaStreamCreate");
  unsigned *smallCounts = zeroedCounts(small.x * small.y);
  unsigned *largeCounts = zeroedCounts(large.x * large.y);
  // The kernel's first launch takes dynamic tiles: the ordered pool, room
  // for 1024 tiles.
  const Launched made = launchCounting<3>(small, stream, true, smallCounts);
  gpucheck::require(cudaGetLastError(), "ordered tileLaunch");
  waitStreamOrDie(stream, "ordered tileLaunch");
  tally.check(made.ordered, "the first ordered launch was not ordered");

  const std::string grown = "captured ordered launch with more tiles";
  Launched a;
  cudaGraphExec_t growing = captureGraph(tally, stream, grown, [&] {
    a = launchCounting<3>(large, stream, true, largeCounts);
  });
  tally.check(!a.dynamic && !a.ordered,
              grown + ": launched with dynamic tiles, or ordered");
  replay(growing, stream, 2, grown);
  checkCounts(tally, largeCounts, large, 2, grown);

  const std::string fits = "captured ordered launch that fits";
  Launched b;
  cudaGraphExec_t fitting = captureGraph(tally, stream, fits, [&] {
    b = launchCounting<3>(small, stream, true, smallCounts);
  });
  tally.check(!made.ordered || b.ordered,
              fits + ": the pool has room, but the launch was not ordered");
  replay(fitting, stream, 2, fits);
  checkCounts(tally, smallCounts, small, 3, fits);

  // Outside the capture, until a launch is ordered: the pool grows.
  int launches = 0;
  bool ordered = false;
  while (!ordered && launches < 200) {
    ordered = launchCounting<3>(large, stream, true, largeCounts).ordered;
    ++launches;
  }
  gpucheck::require(cudaGetLastError(), "ordered tileLaunch");
  tally.check(ordered, grown + ": no ordered launch outside the capture");
  replay(growing, stream, 1, grown);
  replay(fitting, stream, 2, fits);
  checkCounts(tally, largeCounts, large, 2 + launches + 1,
              grown + ", after the pool grew");
  checkCounts(tally, smallCounts, small, 5, fits + ", after the pool grew");
  for (cudaGraphExec_t exec : {growing, fitting})
    if (exec)
      cudaGraphExecDestroy(exec);
  cudaFree(smallCounts);
  cudaFree(largeCounts);
  cudaStreamDestroy(stream);
}


} // namespace

int main(int argc, char **argv) {
  gpucheck::skipWithoutDevice();
  // Re-checks often enough that the choice is searched more than once.
  setenv("DISTWAR_AUTOTUNE_INTERVAL", "16", 1);
  const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  gpucheck::Tally tally;
  const dim3 warp(32), tile(16, 16);
  std::vector<Case> cases = {
      {0, 4, warp, 2},   {1, 1, warp, 3},     {1, 8, warp, 2},
      {5, 2, tile, 3},   {100, 1, tile, 2},   {100, 7, warp, 3},
      {100, 0, tile, 3}, {100, 300, warp, 2},
  };
  if (!small) {
    cases.push_back({20000, 0, warp, 4});
    cases.push_back({20000, 0, tile, 3});
    cases.push_back({3000, 13, tile, 3});
  }
  for (const Case &c : cases)
    runCase(tally, c);
  checkReset(tally);
  checkLaunchModes(tally, small ? 12 : 120);
  checkOrderedLaunches(tally, small ? 12 : 120);
  // Launches that fail on purpose, which compute-sanitizer reports.
  if (!small) {
    checkFailingLaunches(tally);
    checkDynamicDoesNotFit(tally);
  }
  checkCapturedFirstLaunch(tally);
  checkCapturedOrderedLaunches(tally);
  return tally.finish();
}
