//===- LaneMathTest.cpp - CPU emulation of the warp reductions' indices ---===//
//
// Replays, lane by lane, the shuffle schedules of distwar/reduce.cuh with the
// index helpers of distwar/lane_math.h, and checks that every field's sum
// lands where the issuing code looks for it.
//
//===----------------------------------------------------------------------===//

#include "distwar/lane_math.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace distwar::detail;

namespace {

using Lanes = std::vector<std::vector<long long>>; // [lane][field]

Lanes randomValues(std::mt19937 &rng, int n) {
  Lanes v(32, std::vector<long long>(n));
  for (auto &lane : v)
    for (long long &x : lane)
      x = static_cast<long long>(rng() % 1000);
  return v;
}

} // namespace

TEST(LaneMath, NthSetBitMatchesALinearScan) {
  std::mt19937 rng(1);
  for (int iter = 0; iter < 2000; ++iter) {
    unsigned mask = static_cast<unsigned>(rng()) & static_cast<unsigned>(rng());
    if (iter == 0)
      mask = kFullMask;
    int n = 0;
    for (int lane = 0; lane < 32; ++lane)
      if (mask >> lane & 1u)
        EXPECT_EQ(nthSetBit(mask, n++), lane) << std::hex << mask;
  }
}

// PeerWalk's pointer jumping: from nextPeer, each doubling reads the current
// source's own source, which must be the lane 2^j ranks on, cyclically.
TEST(LaneMath, PeerWalkDoublingReachesRankPlusOffset) {
  std::mt19937 rng(4);
  for (int iter = 0; iter < 2000; ++iter) {
    unsigned peers =
        static_cast<unsigned>(rng()) & static_cast<unsigned>(rng());
    if (iter == 0)
      peers = kFullMask;
    if (iter == 1)
      peers = 1u << 31;
    if (peers == 0)
      continue;
    const int g = popCount(peers);
    std::vector<int> source(32, -1);
    for (int lane = 0; lane < 32; ++lane)
      if (peers >> lane & 1u)
        source[lane] = nextPeer(peers, lane);
    for (int offset = 1; offset < 32; offset <<= 1) {
      if (offset > 1) {
        const std::vector<int> before = source;
        for (int lane = 0; lane < 32; ++lane)
          if (peers >> lane & 1u)
            source[lane] = before[before[lane]];
      }
      for (int lane = 0; lane < 32; ++lane) {
        if (!(peers >> lane & 1u))
          continue;
        const int rank = popCount(peers & ((1u << lane) - 1u));
        EXPECT_EQ(source[lane], nthSetBit(peers, (rank + offset) % g))
            << std::hex << peers << std::dec << " lane " << lane << " offset "
            << offset;
      }
    }
  }
}

// The reduce-scatter of reduceFullWarp, on 32 emulated lanes.
TEST(LaneMath, ReduceScatterPutsEveryFieldSumOnItsHolder) {
  std::mt19937 rng(2);
  for (int n = 1; n <= 32; ++n) {
    Lanes v = randomValues(rng, n);
    std::vector<long long> total(n, 0);
    for (auto &lane : v)
      for (int i = 0; i < n; ++i)
        total[i] += lane[i];
    int kept = n;
    for (int step = 0; step < 5; ++step) {
      const int offset = 16 >> step;
      const Lanes before = v;
      if (kept > 1) {
        const int half = (kept + 1) / 2;
        for (int lane = 0; lane < 32; ++lane) {
          const bool upper = lane & offset;
          for (int i = 0; i < half; ++i) {
            auto pick = [&](int l, bool hi) {
              const int idx = hi ? half + i : i;
              return idx < kept ? before[l][idx] : 0;
            };
            const long long received = pick(lane ^ offset, upper);
            v[lane][i] = pick(lane, upper) + received;
          }
        }
        kept = half;
      } else {
        for (int lane = 0; lane < 32; ++lane)
          v[lane][0] = before[lane][0] + before[lane ^ offset][0];
      }
    }
    EXPECT_EQ(kept, 1);
    EXPECT_EQ(scatterHalvings(n), n == 1 ? 0 : 32 - __builtin_clz(n - 1));
    for (int k = 0; k < n; ++k) {
      const int holder = scatterHolder(n, k);
      EXPECT_EQ(scatterField(n, holder), k) << "n=" << n << " k=" << k;
      EXPECT_TRUE(scatterValid(n, holder));
      EXPECT_EQ(v[holder][0], total[k]) << "n=" << n << " k=" << k;
    }
    for (int lane = 0; lane < 32; ++lane)
      if (scatterValid(n, lane))
        EXPECT_EQ(v[lane][0], total[scatterField(n, lane)]);
  }
}

// The rotated segmented tree of reduceSegmented: for field i, the sum of a
// key group lands on group rank i mod g (rank 0 without rotation).
TEST(LaneMath, SegmentedTreeSumsEveryGroupOnTheIssuingRank) {
  std::mt19937 rng(3);
  for (int iter = 0; iter < 500; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 20);
    const bool rotate = iter % 2;
    const unsigned mask =
        iter % 5 == 0 ? kFullMask : static_cast<unsigned>(rng()) | 1u;
    const int keys = 1 + static_cast<int>(rng() % 6);
    std::vector<int> key(32);
    for (int &k : key)
      k = static_cast<int>(rng() % keys);
    std::vector<unsigned> peers(32, 0);
    for (int a = 0; a < 32; ++a)
      for (int b = 0; b < 32; ++b)
        if ((mask >> a & 1u) && (mask >> b & 1u) && key[a] == key[b])
          peers[a] |= 1u << b;
    Lanes v = randomValues(rng, n);
    Lanes original = v;
    auto rankOf = [&](int lane) {
      return popCount(peers[lane] & ((1u << lane) - 1u));
    };
    // PeerWalk, lane by lane: the next peer, then the source's source.
    std::vector<int> walk(32, -1);
    for (int lane = 0; lane < 32; ++lane)
      if (mask >> lane & 1u)
        walk[lane] = nextPeer(peers[lane], lane);
    for (int offset = 1; offset < 32; offset <<= 1) {
      bool any = false;
      for (int lane = 0; lane < 32; ++lane)
        any |= (mask >> lane & 1u) && offset < popCount(peers[lane]);
      if (!any)
        break;
      if (offset > 1) {
        const std::vector<int> previous = walk;
        for (int lane = 0; lane < 32; ++lane)
          if (mask >> lane & 1u)
            walk[lane] = previous[previous[lane]];
      }
      const Lanes before = v;
      for (int lane = 0; lane < 32; ++lane) {
        if (!(mask >> lane & 1u))
          continue;
        const int g = popCount(peers[lane]);
        const int r = rankOf(lane);
        const int src = walk[lane];
        ASSERT_TRUE(peers[lane] >> src & 1u);
        int virtualRank = r;
        for (int i = 0; i < n; ++i) {
          if (i > 0)
            virtualRank = virtualRank == 0 ? g - 1 : virtualRank - 1;
          if ((rotate ? virtualRank : r) + offset < g)
            v[lane][i] += before[src][i];
        }
      }
    }
    for (int lane = 0; lane < 32; ++lane) {
      if (!(mask >> lane & 1u))
        continue;
      const int g = popCount(peers[lane]);
      for (int i = 0; i < n; ++i) {
        const int issuer = rotate ? i % g : 0;
        if (rankOf(lane) != issuer)
          continue;
        long long total = 0;
        for (int l = 0; l < 32; ++l)
          if (peers[lane] >> l & 1u)
            total += original[l][i];
        EXPECT_EQ(v[lane][i], total) << "iter " << iter << " field " << i;
      }
    }
  }
}
