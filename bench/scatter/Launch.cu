//===- Launch.cu - one variant of the face scatter and its launcher -------===//
//
// Compiled once per variant with -DVARIANT_SOURCE="<file>" and
// -DLAUNCHER=<name>: the kernel keeps its name inside an anonymous
// namespace, so the variants link into one program.
//===----------------------------------------------------------------------===//
#include <distwar/runtime.cuh> // before the namespace: rewritten code names ::distwar
namespace {
#include VARIANT_SOURCE
} // namespace

void LAUNCHER(const int *Faces, const float *DFace, float *GradVerts, int F) {
  faceScatter<<<(F + 255) / 256, 256>>>(Faces, DFace, GradVerts, F);
}
