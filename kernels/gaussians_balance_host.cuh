// Host code of the load-balanced 3DGS render (gaussians_balance.h) that the
// forward and the backward share: the list of a stage's kernels with their
// names, and the launch of a persistent kernel on a TilePool. For
// gaussians_forward_balanced.cu and gaussians_backward_balanced.cu only: the
// launch needs nvcc, and gaussians_balance.h must compile without it.
#pragma once

#include "gaussians_balance.h"

#include <cstddef>
#include <vector>

namespace dwk {
namespace balance_detail {

// One kernel of a stage and its name in tables and tests.
template <typename Kernel> struct NamedKernel {
  Kernel kernel;
  const char *name;
};

// A stage's kernels in the order of `table`, the order the benchmarks and
// tests go through them. One table per stage keeps a kernel's place in the
// list and its name from drifting apart.
template <typename Kernel, size_t N>
std::vector<Kernel> kernelsOf(const NamedKernel<Kernel> (&table)[N]) {
  std::vector<Kernel> all;
  all.reserve(N);
  for (const NamedKernel<Kernel> &entry : table)
    all.push_back(entry.kernel);
  return all;
}

template <typename Kernel, size_t N>
const char *nameIn(const NamedKernel<Kernel> (&table)[N], Kernel k) {
  for (const NamedKernel<Kernel> &entry : table)
    if (entry.kernel == k)
      return entry.name;
  return "?";
}

// Launches persistent `kernel` on `stream` as
// kernel(a, queue, order, extra..., tiles) over the tiles of `pool`, each
// drawn as `perTile` pieces: as many blocks of `block` as fit resident at
// once, but no more than there are pieces (a block with nothing to draw
// would only start and stop).
template <typename Kernel, typename Args, typename... Extra>
void launchOnPool(Kernel kernel, dim3 block, unsigned perTile, const Args &a,
                  const TilePool &pool, cudaStream_t stream,
                  const Extra &...extra) {
  const unsigned tiles = unsigned(pool.tiles());
  const int threads = int(block.x * block.y * block.z);
  kernel<<<distwar::cachedPersistentBlocks(kernel, threads, 0, tiles * perTile),
           block, 0, stream>>>(a, pool.queue(), pool.order(), extra..., tiles);
}

} // namespace balance_detail
} // namespace dwk
