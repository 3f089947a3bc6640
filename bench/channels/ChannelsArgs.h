//===- ChannelsArgs.h - arguments of the 128-channel backward --*- C++ -*-===//
#ifndef DISTWAR_BENCH_CHANNELS_ARGS_H
#define DISTWAR_BENCH_CHANNELS_ARGS_H
#include <cuda_runtime.h>

constexpr int kChannels = 128;

struct ChannelsArgs {
  const int *Ranges, *PointList;
  const float2 *Means;
  const float4 *ConicOpacity;
  const float *Features, *DLdPix;
  float *DLdFeat;
  float2 *DLdMean;
  float4 *DLdConic;
  float *DLdOpacity;
  int W, H;
};
#endif
