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
// Last, the same launches drawing their tiles heaviest first (a cost
// kernel that orders them too): each tile once per launch, the order a
// permutation, heaviest first. `--small` runs a subset for
// compute-sanitizer.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"

#include <distwar/tiles.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
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
  return tally.finish();
}
