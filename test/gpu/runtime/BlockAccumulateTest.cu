//===- BlockAccumulateTest.cu - The block-level table on the GPU ----------===//
//
// distwar/block_accumulate.cuh against double sums on the CPU: per-lane keys
// drawn from few primitives (many coincidences in a warp and a block) and
// from many (the table overflows to plain atomics), tables of 16 and 256
// entries, block sizes with a partial last warp, lanes that skip iterations,
// lane-direct and warp-first adds. Every float field within 1e-5 (relative
// L2), every int field exact. `--small` runs a subset for compute-sanitizer.
//
//===----------------------------------------------------------------------===//
#include "GpuCheck.h"

#include <distwar/block_accumulate.cuh>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

using gpucheck::download;
using gpucheck::upload;

constexpr int kFields = 3;
constexpr int kIters = 6;

struct Inputs {
  const int *keys;     // threads * kIters; -1: the lane skips the iteration
  const float *values; // threads * kIters * kFields
  float *sums;         // primitives * kFields
  int *counts;         // primitives
};

// The lanes of this thread's warp that exist (a partial last warp).
__device__ unsigned lanesPresent() {
  const int rank = distwar::detail::threadRankInBlock();
  const int left = distwar::detail::threadsInBlock() - (rank & ~31);
  return left >= 32 ? 0xffffffffu : (1u << left) - 1u;
}

template <int Cap, bool WarpFirst>
__global__ void accumulate(Inputs in) {
  __shared__ distwar::BlockTable<Cap, kFields, 1> table;
  distwar::blockTableInit(table);
  const auto addr = [&in](int key, int f) { return &in.sums[key * kFields + f]; };
  const auto cnt = [&in](int key, int) { return &in.counts[key]; };
  const int thread = blockIdx.x * distwar::detail::threadsInBlock() +
                     distwar::detail::threadRankInBlock();
  const unsigned mask = lanesPresent();
  for (int it = 0; it < kIters; ++it) {
    const int key = in.keys[thread * kIters + it];
    float v[kFields];
    int c[1] = {1};
    for (int f = 0; f < kFields; ++f)
      v[f] = in.values[(thread * kIters + it) * kFields + f];
    if constexpr (WarpFirst)
      distwar::blockAccumulateWarp(table, mask, key >= 0, key, v, c, addr, cnt);
    else if (key >= 0)
      distwar::blockAccumulateLane(table, key, v, c, addr, cnt);
  }
  distwar::blockTableFlush(table, addr, cnt);
}

int passed = 0, failed = 0;

void expect(bool ok, const std::string &what) {
  ok ? ++passed : ++failed;
  if (!ok)
    std::printf("FAIL: %s\n", what.c_str());
}

uint64_t nextRandom(uint64_t &s) {
  s += 0x9e3779b97f4a7c15ull;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Case {
  dim3 block;
  int blocks, primitives;
  double skip; // share of lane iterations without a key
};

template <int Cap, bool WarpFirst> void run(const Case &c, uint64_t seed) {
  const int perBlock = c.block.x * c.block.y * c.block.z;
  const int threads = perBlock * c.blocks;
  std::vector<int> keys(threads * kIters);
  std::vector<float> values(keys.size() * kFields);
  std::vector<double> want(c.primitives * kFields, 0.0);
  std::vector<int> wantCounts(c.primitives, 0);
  uint64_t s = seed;
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool skip = (nextRandom(s) % 1000) < c.skip * 1000;
    keys[i] = skip ? -1 : int(nextRandom(s) % c.primitives);
    for (int f = 0; f < kFields; ++f) {
      // Some exact zeros: the table skips them, the sums must not change.
      const float v = (nextRandom(s) % 8 == 0)
                          ? 0.f
                          : float(int(nextRandom(s) % 2001) - 1000) / 997.f;
      values[i * kFields + f] = v;
      if (!skip)
        want[keys[i] * kFields + f] += v;
    }
    if (!skip)
      ++wantCounts[keys[i]];
  }
  Inputs in{upload(keys), upload(values), nullptr, nullptr};
  gpucheck::require(cudaMalloc(&in.sums, want.size() * sizeof(float)), "alloc");
  gpucheck::require(cudaMalloc(&in.counts, wantCounts.size() * sizeof(int)),
                    "alloc");
  cudaMemset(in.sums, 0, want.size() * sizeof(float));
  cudaMemset(in.counts, 0, wantCounts.size() * sizeof(int));
  accumulate<Cap, WarpFirst><<<c.blocks, c.block>>>(in);
  gpucheck::require(cudaGetLastError(), "launch");
  gpucheck::waitOrDie("accumulate");
  const std::vector<float> got = download(in.sums, want.size());
  const std::vector<int> gotCounts = download(in.counts, wantCounts.size());
  double err = 0, norm = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    err += (got[i] - want[i]) * (got[i] - want[i]);
    norm += want[i] * want[i];
  }
  size_t countsDiffer = 0;
  for (size_t i = 0; i < wantCounts.size(); ++i)
    countsDiffer += gotCounts[i] != wantCounts[i];
  char what[200];
  std::snprintf(what, sizeof what,
                "capacity %d %s, block %ux%u, %d blocks, %d primitives, skip "
                "%.2f: rel L2 %.3g, %zu counts differ",
                Cap, WarpFirst ? "warp-first" : "lane", c.block.x, c.block.y,
                c.blocks, c.primitives, c.skip, std::sqrt(err / norm),
                countsDiffer);
  expect(std::sqrt(err / norm) <= 1e-5 && countsDiffer == 0, what);
  cudaFree((void *)in.keys);
  cudaFree((void *)in.values);
  cudaFree(in.sums);
  cudaFree(in.counts);
}

template <int Cap> void runBoth(const Case &c, uint64_t seed) {
  run<Cap, false>(c, seed);
  run<Cap, true>(c, seed);
}

} // namespace

int main(int argc, char **argv) {
  gpucheck::skipWithoutDevice();
  bool small = false;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0)
      small = true;
    else
      seed = std::strtoull(argv[i], nullptr, 0);
  }
  std::printf("seed %llu%s\n", (unsigned long long)seed,
              small ? " (small)" : "");
  const std::vector<Case> cases = {
      {dim3(16, 16), 4, 8, 0.2},      // few keys: coincidences everywhere
      {dim3(16, 16), 4, 100000, 0.0}, // many keys: 16 entries overflow
      {dim3(100), 3, 40, 0.5},        // partial last warp, half the lanes idle
      {dim3(8, 12), 5, 300, 0.1},     // 96 threads, 3 warps
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    runBoth<16>(cases[i], seed + i);
    if (!small)
      runBoth<256>(cases[i], seed + 100 + i);
  }
  if (!small) // Many blocks: the global atomics of the flushes contend.
    runBoth<256>({dim3(16, 16), 512, 64, 0.3}, seed + 1000);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
