//===- headroom.cpp - What rebalancing the forward render could gain ------===//

#include "headroom.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <queue>

namespace dwk_bench {

namespace {

/// A pixel stops once its transmittance would fall under 1e-4, before the
/// Gaussian that takes it there (whose alpha is at most 0.99): a final T
/// under 0.01 means it saturated, having walked at least one Gaussian past
/// its last contributor. Otherwise it walked the whole list.
double pixelWalk(float finalT, uint32_t lastContributor, uint32_t listLength) {
  if (finalT < 0.01f)
    return std::min<double>(listLength, lastContributor + 1.0);
  return listLength;
}

/// The time the last of \p costs ends when \p slots run them in the given
/// order, each starting as soon as a slot is free.
double makespan(const std::vector<double> &costs, int slots) {
  assert(slots > 0 && "a device runs at least one block");
  std::priority_queue<double, std::vector<double>, std::greater<double>> free;
  for (int i = 0; i < slots; ++i)
    free.push(0.0);
  double end = 0;
  for (double c : costs) {
    const double start = free.top();
    free.pop();
    free.push(start + c);
    end = std::max(end, start + c);
  }
  return end;
}

} // namespace

Headroom forwardHeadroom(const std::vector<uint32_t> &listLengths,
                         const std::vector<float> &finalT,
                         const std::vector<uint32_t> &nContrib, int width,
                         int height, int tileW, int tileH, int slots) {
  const int across = (width + tileW - 1) / tileW;
  const int down = (height + tileH - 1) / tileH;
  assert(listLengths.size() == size_t(across) * down && "one list per tile");
  std::vector<double> tiles(listLengths.size(), 0.0);
  double pixelWork = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const size_t tile = size_t(y / tileH) * across + x / tileW;
      const size_t pixel = size_t(y) * width + x;
      const double walk =
          pixelWalk(finalT[pixel], nContrib[pixel], listLengths[tile]);
      tiles[tile] = std::max(tiles[tile], walk);
      pixelWork += walk;
    }
  Headroom h;
  h.inOrder = makespan(tiles, slots);
  std::vector<double> heavy = tiles;
  std::sort(heavy.begin(), heavy.end(), std::greater<double>());
  h.heavyFirst = makespan(heavy, slots);
  double total = 0;
  for (double c : tiles)
    total += c;
  h.wholeTiles = std::max(heavy.empty() ? 0.0 : heavy.front(), total / slots);
  h.everyLane = pixelWork / (double(slots) * tileW * tileH);
  return h;
}

} // namespace dwk_bench
