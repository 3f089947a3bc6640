//===- ChannelsBench.cu - the 128-channel backward, plain against rewritten
//===//
//
// Each variant of test/kernels/Inputs/many_channels.cu is compiled in its own
// translation unit (launch.cu, with VARIANT naming its launcher); this
// program draws one scene, runs every variant on it, checks every output
// buffer against plain and times each (median of several launches, events).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <random>
#include <string>
#include <vector>

#include "ChannelsArgs.h"
#include "CudaCheck.h"

void launchPlain(const ChannelsArgs &A);
void launchAuto(const ChannelsArgs &A);
void launchFloor(const ChannelsArgs &A);

struct Outputs {
  float *Feat, *Mean, *Conic, *Opacity;
  size_t NFeat, NMean, NConic, NOpacity;
  void clear(float Poison) const {
    for (auto [P, N] : {std::pair{Feat, NFeat},
                        {Mean, NMean},
                        {Conic, NConic},
                        {Opacity, NOpacity}}) {
      std::vector<float> H(N, Poison);
      CHECK(cudaMemcpy(P, H.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    }
  }
};

int main(int argc, char **argv) {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  const int W = 1024, H = 1024, P = 200000, PerTile = 384;
  const int TilesX = W / 16, TilesY = H / 16, Tiles = TilesX * TilesY;
  std::mt19937 Rng(argc > 1 ? std::atoi(argv[1]) : 12345);
  std::uniform_real_distribution<float> U(0.f, 1.f);
  std::vector<int> Ranges(2 * Tiles), List(Tiles * PerTile);
  std::vector<float2> Means(P);
  std::vector<float4> Conic(P);
  std::vector<float> Features((size_t)P * kChannels),
      Pix((size_t)kChannels * W * H);
  for (int I = 0; I < P; ++I) {
    Means[I] = {U(Rng) * W, U(Rng) * H};
    const float S = 0.02f + 0.1f * U(Rng);
    Conic[I] = {S, 0.01f * (U(Rng) - 0.5f), S, 0.2f + 0.7f * U(Rng)};
  }
  for (float &F : Features)
    F = U(Rng) - 0.5f;
  for (float &F : Pix)
    F = U(Rng) - 0.5f;
  // Each tile lists Gaussians near it (sorted), so neighbouring pixels
  // share them as in a real frame.
  for (int T = 0; T < Tiles; ++T) {
    Ranges[2 * T] = T * PerTile;
    Ranges[2 * T + 1] = (T + 1) * PerTile;
    const float Cx = (T % TilesX) * 16 + 8, Cy = (T / TilesX) * 16 + 8;
    for (int K = 0; K < PerTile; ++K) {
      int Id = std::min(P - 1, int(U(Rng) * P));
      Means[Id] = {Cx + 24 * (U(Rng) - 0.5f), Cy + 24 * (U(Rng) - 0.5f)};
      List[T * PerTile + K] = Id;
    }
  }
  ChannelsArgs A{};
  A.W = W;
  A.H = H;
  A.Ranges = upload(Ranges);
  A.PointList = upload(List);
  A.Means = upload(Means);
  A.ConicOpacity = upload(Conic);
  A.Features = upload(Features);
  A.DLdPix = upload(Pix);
  Outputs O{
      nullptr,       nullptr,       nullptr,  nullptr, (size_t)P * kChannels,
      (size_t)P * 2, (size_t)P * 4, (size_t)P};
  CHECK(cudaMalloc(&O.Feat, O.NFeat * sizeof(float)));
  CHECK(cudaMalloc(&O.Mean, O.NMean * sizeof(float)));
  CHECK(cudaMalloc(&O.Conic, O.NConic * sizeof(float)));
  CHECK(cudaMalloc(&O.Opacity, O.NOpacity * sizeof(float)));
  A.DLdFeat = O.Feat;
  A.DLdMean = reinterpret_cast<float2 *>(O.Mean);
  A.DLdConic = reinterpret_cast<float4 *>(O.Conic);
  A.DLdOpacity = O.Opacity;

  struct Variant {
    const char *Name;
    void (*Launch)(const ChannelsArgs &);
  } Variants[] = {
      {"plain", launchPlain}, {"auto", launchAuto}, {"floor", launchFloor}};
  auto Run = [&](const Variant &V) {
    O.clear(0.f);
    V.Launch(A);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> All;
    for (auto [Ptr, N] : {std::pair{O.Feat, O.NFeat},
                          {O.Mean, O.NMean},
                          {O.Conic, O.NConic},
                          {O.Opacity, O.NOpacity}}) {
      std::vector<float> Part = download(Ptr, N);
      All.insert(All.end(), Part.begin(), Part.end());
    }
    return All;
  };

  // Correctness: auto against plain, within plain's own run-to-run spread.
  std::vector<float> Plain = Run(Variants[0]), Again = Run(Variants[0]),
                     Auto = Run(Variants[1]);
  const size_t Bad = countMismatches(Plain, Again, Auto, "auto");
  std::printf("%zu passed, %zu failed\n", Plain.size() - Bad, Bad);

  cudaEvent_t B, E;
  CHECK(cudaEventCreate(&B));
  CHECK(cudaEventCreate(&E));
  std::vector<std::vector<float>> Times(3);
  for (int Rep = 0; Rep < 9; ++Rep)
    for (int K = 0; K < 3; ++K) {
      CHECK(cudaMemset(O.Feat, 0, O.NFeat * sizeof(float)));
      CHECK(cudaEventRecord(B));
      Variants[K].Launch(A);
      CHECK(cudaEventRecord(E));
      CHECK(cudaEventSynchronize(E));
      float Ms;
      CHECK(cudaEventElapsedTime(&Ms, B, E));
      if (Rep)
        Times[K].push_back(Ms);
    }
  cudaDeviceProp Prop;
  CHECK(cudaGetDeviceProperties(&Prop, 0));
  std::printf("| %s, %dx%d, %d Gaussians/tile, %d channels | ms (median) | "
              "x plain | gap closed |\n|---|---|---|---|\n",
              Prop.name, W, H, PerTile, kChannels);
  std::vector<float> Med(3);
  for (int K = 0; K < 3; ++K) {
    std::sort(Times[K].begin(), Times[K].end());
    Med[K] = Times[K][Times[K].size() / 2];
  }
  for (int K = 0; K < 3; ++K)
    std::printf("| %s | %.3f | %.2fx | %s |\n", Variants[K].Name, Med[K],
                Med[0] / Med[K],
                K == 1 ? (std::to_string(int(std::lround(
                              100 * (Med[0] - Med[1]) / (Med[0] - Med[2])))) +
                          "%")
                             .c_str()
                       : "");
  return Bad ? 1 : 0;
}
