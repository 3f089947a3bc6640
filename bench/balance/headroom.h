//===- headroom.h - What rebalancing the forward render could gain --------===//
//
// A work model of the 3DGS forward render, from the original kernel's own
// outputs, to say how far any load balancing could take a scene: each
// pixel walks its tile's list until it saturates or the list ends; a block
// runs as long as its slowest pixel (its barriers every round); the device
// runs `slots` blocks at once and, as its block scheduler does, starts the
// tiles in launch order as slots free up. In units of Gaussians walked:
//
//   inOrder     the makespan of the original schedule;
//   heavyFirst  the same with the tiles started heaviest first (technique
//               1 with an ordered pool);
//   wholeTiles  max(heaviest tile, all tiles' cost / slots): no schedule of
//               whole tiles does better;
//   everyLane   all pixels' walks / (slots x pixels per tile): every lane of
//               every slot busy all the time, which warp-per-pixel rendering
//               and tiles split into pieces aim at, their own costs left out.
//
// inOrder / heavyFirst estimates what dynamic tiles gain; inOrder / wholeTiles
// and inOrder / everyLane bound what balancing whole tiles, and balancing
// at all, can gain, under the model.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_BENCH_BALANCE_HEADROOM_H
#define DISTWAR_BENCH_BALANCE_HEADROOM_H

#include <cstdint>
#include <vector>

namespace dwk_bench {

struct Headroom {
  double inOrder = 0, heavyFirst = 0, wholeTiles = 0, everyLane = 0;
};

/// The model on one frame: \p listLengths the tiles' list lengths (tiles
/// row-major, \p tileW x \p tileH pixels each), \p finalT and \p nContrib
/// the original forward's per-pixel outputs over a \p width x \p height
/// image, \p slots the blocks the device runs at once.
Headroom forwardHeadroom(const std::vector<uint32_t> &listLengths,
                         const std::vector<float> &finalT,
                         const std::vector<uint32_t> &nContrib, int width,
                         int height, int tileW, int tileH, int slots);

} // namespace dwk_bench

#endif
