//===- ChannelVersionsTest.cpp - The run-time test of versioned loops -----===//
//
// distwar/channel_versions.h decides, per lane, whether a loop's deferred
// adds could meet its own reads: byte ranges of `count` elements from each
// address, and the dispatch to a version by trip count.
//
//===----------------------------------------------------------------------===//

#include "distwar/channel_versions.h"

#include <gtest/gtest.h>

#include <vector>

using distwar::channelHull;
using distwar::channelRangesApart;
using distwar::runChannelVersion;

namespace {

TEST(ChannelVersions, HullCoversEveryRange) {
  float buf[64];
  const distwar::ByteRange h = channelHull(3, buf + 10, buf + 2, buf + 30);
  EXPECT_EQ(h.lo, reinterpret_cast<std::uintptr_t>(buf + 2));
  EXPECT_EQ(h.hi, reinterpret_cast<std::uintptr_t>(buf + 33));
}

TEST(ChannelVersions, ReadsApartOnlyWhenNoByteIsShared) {
  float adds[16];
  float other[16];
  const distwar::ByteRange h = channelHull(4, adds + 4);
  EXPECT_TRUE(channelRangesApart(4, h, other, other + 8));
  EXPECT_TRUE(channelRangesApart(4, h, adds, adds + 8)); // touching ends
  EXPECT_FALSE(channelRangesApart(4, h, adds + 1));      // overlaps [4, 5)
  EXPECT_FALSE(channelRangesApart(4, h, adds + 7));      // overlaps [7, 8)
  EXPECT_FALSE(channelRangesApart(4, h, other, adds + 6));
}

TEST(ChannelVersions, RangesAreInBytesOfEachType) {
  float adds[8];
  // A double read from the float buffer covers two floats per element.
  const double *asDouble = reinterpret_cast<const double *>(adds);
  const distwar::ByteRange h = channelHull(2, adds + 4);
  EXPECT_FALSE(channelRangesApart(2, h, asDouble + 1)); // bytes [8, 24)
  EXPECT_TRUE(channelRangesApart(1, h, asDouble + 1));  // bytes [8, 16)
  const char *asChar = reinterpret_cast<const char *>(adds);
  EXPECT_TRUE(channelRangesApart(2, h, asChar + 14));  // bytes [14, 16)
  EXPECT_FALSE(channelRangesApart(3, h, asChar + 14)); // reaches byte 16
}

TEST(ChannelVersions, NoElementsTouchNothing) {
  float adds[8];
  const distwar::ByteRange h = channelHull(0, adds);
  EXPECT_TRUE(channelRangesApart(0, h, adds));
  EXPECT_TRUE(channelRangesApart(-3, h, adds));
}

TEST(ChannelVersions, DispatchesCountsOneToFour) {
  for (int count = -1; count <= distwar::kVersionedChannels + 2; ++count) {
    for (bool apart : {true, false}) {
      int ran = 0;
      const bool versioned = runChannelVersion(
          [&](auto trip) { ran = decltype(trip)::value; }, count, apart);
      const bool want =
          apart && count >= 1 && count <= distwar::kVersionedChannels;
      EXPECT_EQ(versioned, want) << count << " " << apart;
      EXPECT_EQ(ran, want ? count : 0) << count << " " << apart;
    }
  }
}

} // namespace
