//===- Launch.cu - one variant of the 128-channel backward and its launcher
//===//
//
// Compiled once per variant with -DVARIANT_SOURCE="<file>" and
// -DLAUNCHER=<name>: the kernel keeps its name inside an anonymous
// namespace, so the variants link into one program.
//===----------------------------------------------------------------------===//
#include "ChannelsArgs.h"
#include <distwar/runtime.cuh> // before the namespace: rewritten code names ::distwar
namespace {
#include VARIANT_SOURCE
} // namespace

void LAUNCHER(const ChannelsArgs &A) {
  dim3 Grid(A.W / 16, A.H / 16);
  featureBackward<kChannels><<<Grid, 256>>>(
      A.Ranges, A.PointList, A.Means, A.ConicOpacity, A.Features, A.DLdPix,
      A.DLdFeat, A.DLdMean, A.DLdConic, A.DLdOpacity, A.W, A.H);
}
