//===- ScatterBench.cu - a thread per face scattering to its vertices -----===//
//
// face_scatter.cu, plain and as the tool writes it (auto), on a grid mesh
// whose faces are in row order (neighbouring lanes share vertices) and on
// the same mesh with its faces shuffled (they rarely do). Checks every
// vertex gradient against plain and times both (median of launches). Run it
// with DISTWAR_THRESHOLD unset, 0 and 33 (33: every lane adds alone) to see
// the thresholds' range.
//
//===----------------------------------------------------------------------===//
#include "CudaCheck.h"

#include <distwar/sites.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

void launchPlain(const int *Faces, const float *DFace, float *GradVerts,
                 int F);
void launchAuto(const int *Faces, const float *DFace, float *GradVerts, int F);

using Launcher = void (*)(const int *, const float *, float *, int);

/// Two triangles per cell of an N x N grid of vertices, in row order.
static std::vector<int> gridFaces(int N) {
  std::vector<int> Faces;
  for (int Y = 0; Y + 1 < N; ++Y)
    for (int X = 0; X + 1 < N; ++X) {
      const int V = Y * N + X;
      Faces.insert(Faces.end(), {V, V + 1, V + N, V + 1, V + N + 1, V + N});
    }
  return Faces;
}

static std::vector<int> shuffledFaces(std::vector<int> Faces,
                                      std::mt19937 &Rng) {
  const size_t F = Faces.size() / 3;
  std::vector<size_t> Order(F);
  std::iota(Order.begin(), Order.end(), 0);
  std::shuffle(Order.begin(), Order.end(), Rng);
  std::vector<int> Out(Faces.size());
  for (size_t I = 0; I < F; ++I)
    std::copy_n(&Faces[3 * Order[I]], 3, &Out[3 * I]);
  return Out;
}

static float medianMs(Launcher L, const int *Faces, const float *DFace,
                      float *Grad, int F, size_t NGrad) {
  cudaEvent_t B, E;
  CHECK(cudaEventCreate(&B));
  CHECK(cudaEventCreate(&E));
  std::vector<float> Times;
  for (int Rep = 0; Rep < 21; ++Rep) {
    CHECK(cudaMemset(Grad, 0, NGrad * sizeof(float)));
    CHECK(cudaEventRecord(B));
    L(Faces, DFace, Grad, F);
    CHECK(cudaEventRecord(E));
    CHECK(cudaEventSynchronize(E));
    float Ms;
    CHECK(cudaEventElapsedTime(&Ms, B, E));
    if (Rep)
      Times.push_back(Ms);
  }
  std::sort(Times.begin(), Times.end());
  return Times[Times.size() / 2];
}

/// Checks and times one mesh; returns the number of mismatching values.
static size_t runMesh(const char *Name, const std::vector<int> &HostFaces,
                      int NVerts, std::mt19937 &Rng) {
  const int F = int(HostFaces.size() / 3);
  std::uniform_real_distribution<float> U(-1.f, 1.f);
  std::vector<float> HostDFace(3 * size_t(F));
  for (float &V : HostDFace)
    V = U(Rng);
  const int *Faces = upload(HostFaces);
  const float *DFace = upload(HostDFace);
  const size_t NGrad = 3 * size_t(NVerts);
  float *Grad;
  CHECK(cudaMalloc(&Grad, NGrad * sizeof(float)));
  auto Run = [&](Launcher L) {
    // Poisoned, then cleared by the memset a caller would do.
    CHECK(cudaMemset(Grad, 0xff, NGrad * sizeof(float)));
    CHECK(cudaMemset(Grad, 0, NGrad * sizeof(float)));
    L(Faces, DFace, Grad, F);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    return download(Grad, NGrad);
  };
  std::vector<float> Plain = Run(launchPlain), Again = Run(launchPlain),
                     Auto = Run(launchAuto);
  const size_t Bad = countMismatches(Plain, Again, Auto, "auto");
  const float P = medianMs(launchPlain, Faces, DFace, Grad, F, NGrad);
  const float A = medianMs(launchAuto, Faces, DFace, Grad, F, NGrad);
  std::printf("| %s | %d | %.4f | %.4f | %.2fx |\n", Name, F, P, A, P / A);
  CHECK(cudaFree(Grad));
  CHECK(cudaFree(const_cast<int *>(Faces)));
  CHECK(cudaFree(const_cast<float *>(DFace)));
  return Bad;
}

int main() {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp Prop;
  CHECK(cudaGetDeviceProperties(&Prop, 0));
  // The launches here are not wrapped by the tool (the launcher is in
  // another file), so DISTWAR_THRESHOLD reaches the site tables only here.
  distwar::applyEnvironmentThresholds();
  CHECK(cudaDeviceSynchronize());
  const int N = 1024;
  std::mt19937 Rng(12345);
  std::vector<int> Rows = gridFaces(N);
  const char *Threshold = std::getenv("DISTWAR_THRESHOLD");
  std::printf("%s, DISTWAR_THRESHOLD=%s\n| mesh | faces | plain ms | auto ms "
              "| auto x plain |\n|---|---|---|---|---|\n",
              Prop.name, Threshold && *Threshold ? Threshold : "(unset)");
  size_t Bad = runMesh("grid, row order", Rows, N * N, Rng);
  Bad += runMesh("grid, shuffled", shuffledFaces(Rows, Rng), N * N, Rng);
  std::printf("%zu failed\n", Bad);
  return Bad ? 1 : 0;
}
