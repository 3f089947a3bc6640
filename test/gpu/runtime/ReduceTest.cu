//===- ReduceTest.cu - Every reduction equals plain atomics ---------------===//
//
// Each reduction (serial, butterfly, butterfly with a uniform key) x strategy
// x element type x batch size x lane pattern x threshold is compared with a
// CPU reference sum (integers exactly, floats within 1e-6 of the sum of
// magnitudes) on fresh random inputs, with outputs poisoned to a base value
// first (fields written through nullptr must keep it). Batches without and
// with AlwaysSet ranges (every slot but the last issued with no presence or
// null test; the last one tracked and sometimes null), and with LaneSet
// ranges (slot 0 always set, the others set by some lanes of a key and not
// by others: the issuing lane may not have set the slot it issues). The
// unreduced baseline (reducePlain) runs the same cases, and every reduction
// runs on batches of no field.
// `--small` runs a subset for compute-sanitizer.
//
//===----------------------------------------------------------------------===//

#include "ReduceCases.cuh"

#include <cstdio>

using namespace reducetest;

namespace {

/// Batches of no field (a channel loop instantiated with no channels): every
/// reduction, in both forms, adds nothing and reads no slot (a Batch's
/// addresses and a Fields' values are left unset). addrOf returns real
/// addresses, so an atomic issued by mistake shows in `out`.
template <typename S> __global__ void emptyBatchKernel(int *out) {
  const bool active = threadIdx.x % 3 != 0;
  const int key = static_cast<int>(threadIdx.x / 8);
  distwar::Batch<int, 0> b;
  distwar::Fields<int, 0> f;
  auto addrOf = [&](int) -> int * { return &out[threadIdx.x % 4]; };
  distwar::reducePlain(b);
  distwar::reducePlain(f, addrOf);
  distwar::reduceSerial<S>(b, key, 0);
  distwar::reduceSerial<S>(f, key, 0, addrOf);
  distwar::reduceButterfly<S>(b, active, key, 0);
  distwar::reduceButterfly<S>(f, active, key, 0, addrOf);
  distwar::reduceButterflyUniform<S>(b, active, 0, 0);
  distwar::reduceButterflyUniform<S>(f, active, 0, 0, addrOf);
}

template <typename S> void runEmpty(gpucheck::Tally &tally) {
  const std::string what = std::string("empty batches, strategy ") + S::kName;
  int *dOut;
  gpucheck::require(cudaMalloc(&dOut, 4 * sizeof(int)), "cudaMalloc");
  gpucheck::require(cudaMemset(dOut, 0, 4 * sizeof(int)), "cudaMemset");
  emptyBatchKernel<S><<<2, 64>>>(dOut);
  gpucheck::require(cudaGetLastError(), what.c_str());
  gpucheck::waitOrDie(what);
  std::vector<int> out(4, -1);
  gpucheck::require(
      cudaMemcpy(out.data(), dOut, 4 * sizeof(int), cudaMemcpyDeviceToHost),
      "cudaMemcpy");
  cudaFree(dOut);
  tally.check(out == std::vector<int>(4, 0), what);
}

} // namespace

int main(int argc, char **argv) {
  gpucheck::skipWithoutDevice();
  Options opt;
  for (int i = 1; i < argc; ++i)
    opt.small |= std::strcmp(argv[i], "--small") == 0;
  std::random_device seedSource;
  const unsigned seed = seedSource();
  std::printf("seed %u%s\n", seed, opt.small ? " (small)" : "");
  std::mt19937 rng(seed);
  gpucheck::Tally tally;
  runEmpty<strategy::Leader>(tally);
  runEmpty<strategy::TreeLaneK>(tally);
  runEmpty<strategy::ScatterLaneK>(tally);
  runEmpty<strategy::ScatterLeader>(tally);
  runFloat(tally, rng, opt);
  runUnsignedLongLong(tally, rng, opt);
  if (!opt.small) {
    runDouble(tally, rng, opt);
    runInt(tally, rng, opt);
  }
  return tally.finish();
}
