//===- ReduceCases.cuh - One reduction case against a CPU sum ---*- C++ -*-===//
//
// The cases of ReduceTest.cu, by element type: each reduction (serial, serial
// through kept key groups, butterfly, butterfly with a uniform key) x strategy
// x batch size x lane pattern x threshold against a CPU reference sum. Each
// element type is compiled in a file of its own (ReduceFloat.cu, ...), so that
// the test's many kernels build in parallel.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TEST_GPU_RUNTIME_REDUCECASES_CUH
#define DISTWAR_TEST_GPU_RUNTIME_REDUCECASES_CUH

#include "GpuCheck.h"

#include <distwar/runtime.cuh>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace reducetest {

namespace strategy = distwar::strategy;


enum Flags : unsigned char { kActive = 1, kExit = 2, kSplit = 4 };
enum class Variant { kPlain, kSerial, kKept, kTogether, kButterfly, kUniform };

constexpr int kWarps = 16;
constexpr int kThreads = kWarps * 32;
constexpr int kBlock = 128;
constexpr int kKeys = kWarps * 32;

/// The batch under test: values only (Deferred: Fields, addresses rebuilt by
/// addrOf, as the rewriter emits it) or values and addresses (Batch); every
/// slot tracked, or (Always) every slot but the last always set, or (Lane)
/// slot 0 always set and the others LaneSet; marked Consecutive, or with
/// an Adjacent run (AdjacentRun: slots [1, N) from N = 5, else all), or not.
template <template <typename, int, typename...> class Form, typename T, int N,
          typename Mark>
struct Marked {
  template <typename... R> using Type = Form<T, N, R..., Mark>;
};
template <template <typename, int, typename...> class Form, typename T, int N>
struct Marked<Form, T, N, void> {
  template <typename... R> using Type = Form<T, N, R...>;
};
template <template <typename, int, typename...> class Form, typename T, int N,
          bool Always, bool Lane, typename Mark>
using WithRanges = std::conditional_t<
    Lane,
    typename Marked<Form, T, N, Mark>::template Type<distwar::AlwaysSet<0, 1>,
                                                     distwar::LaneSet<1, N>>,
    std::conditional_t<Always,
                       typename Marked<Form, T, N, Mark>::template Type<
                           distwar::AlwaysSet<0, N - 1>>,
                       typename Marked<Form, T, N, Mark>::template Type<>>>;
template <int N> using AdjacentRun = distwar::Adjacent<N >= 5 ? 1 : 0, N>;
template <int N, bool Consecutive, bool Adjacent>
using MarkOf = std::conditional_t<
    Consecutive, distwar::Consecutive,
    std::conditional_t<Adjacent && N >= 2, AdjacentRun<N>, void>>;
template <typename T, int N, bool Deferred, bool Always, bool Lane,
          bool Consecutive, bool Adjacent = false>
using BatchUnderTest =
    std::conditional_t<Deferred,
                       WithRanges<distwar::Fields, T, N, Always, Lane,
                                  MarkOf<N, Consecutive, Adjacent>>,
                       WithRanges<distwar::Batch, T, N, Always, Lane,
                                  MarkOf<N, Consecutive, Adjacent>>>;

/// Where field k of a key lies among the key's N elements. In a Consecutive
/// batch or one with an Adjacent run, odd keys have their fields in reverse
/// order: those lanes' addresses do not follow each other, so the reductions
/// must issue them field by field beside the lanes they coalesce. (Keys'
/// elements start 4N bytes apart, so the even keys' runs start at every
/// alignment a vector atomic may or may not take.)
__host__ __device__ inline int elementOf(int key, int k, int n,
                                         bool consecutive) {
  return consecutive && (key & 1) ? n - 1 - k : k;
}

/// Whether lane i sets LaneSet slot k (k >= 1): about half the lanes of a
/// key, the same on the CPU.
__host__ __device__ inline bool laneSets(int i, int k) {
  return ((static_cast<unsigned>(i) * 2654435761u) >> (k + 3)) & 1u;
}

/// Stands for "no addrOf": the Batch form's own addresses are used.
struct NoAddrOf {};

/// The serial reduction through kept key groups, as distwar-rewrite emits
/// it for two groups of one key: a first reduction (of a batch that sets
/// nothing here) keeps its match, the batch under test reuses it. At 16 the
/// first one's own value is 33, so it keeps nothing and the second matches.
/// Odd lanes sleep in between, so the second call may come with other lanes.
template <typename S, typename B, typename Key, typename AddrOf>
__device__ __forceinline__ void reduceKept(const B &b, Key key, int threshold,
                                           const AddrOf &addrOf) {
  distwar::KeptPeers kept;
  distwar::Batch<typename B::Type, 1> nothing;
  distwar::reduceSerial<S>(nothing, key, threshold == 16 ? 33 : threshold,
                           distwar::keepPeers(kept));
  if (threadIdx.x & 1)
    __nanosleep(50);
  if constexpr (std::is_same<AddrOf, NoAddrOf>::value)
    distwar::reduceSerial<S>(b, key, threshold, distwar::reusePeers(kept));
  else
    distwar::reduceSerial<S>(b, key, threshold, addrOf,
                             distwar::reusePeers(kept));
}

/// The second part's key of the serial reduction together with the batch
/// under test (thread i, key `key`): in odd warps a function of the key (the
/// parts join), in even warps the thread's own slot (keys shared by several
/// lanes split across parts: each part is reduced alone).
__host__ __device__ inline int togetherKey(int i, int key) {
  return (i / 32) % 2 ? key ^ 1 : i % kKeys;
}

/// reduceSerialTogether over the batch under test and a second part that
/// adds the same values at the second key's fields (every slot set), as
/// distwar-rewrite emits it for the corners of a versioned texel loop.
template <typename S, typename B, typename Key, typename AddrOf, typename T>
__device__ __forceinline__ void
reduceTogether(const B &b, Key key, int threshold, const AddrOf &addrOf, T *out,
               const T *vals) {
  constexpr int N = B::kSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int key2 = togetherKey(i, static_cast<int>(key));
  distwar::Fields<T, N> second;
#pragma unroll
  for (int k = 0; k < N; ++k)
    second.set(k, &out[key2 * N + k], vals[i * N + k]);
  auto addr2 = [&](int slot) -> T * {
    return slot >= 0 && slot < N ? &out[key2 * N + slot] : nullptr;
  };
  auto part2 = distwar::serialPart(second, key2, threshold, addr2);
  if constexpr (std::is_same<AddrOf, NoAddrOf>::value)
    distwar::reduceSerialTogether<S>(distwar::serialPart(b, key, threshold),
                                     part2);
  else
    distwar::reduceSerialTogether<S>(
        distwar::serialPart(b, key, threshold, addrOf), part2);
}

template <Variant V, typename S, typename B, typename Key, typename AddrOf>
__device__ __forceinline__ void reduceOne(const B &b, bool active, Key key,
                                          int threshold, const AddrOf &addrOf) {
  if constexpr (std::is_same<AddrOf, NoAddrOf>::value) {
    if constexpr (V == Variant::kPlain) {
      if (active)
        distwar::reducePlain(b);
    } else if constexpr (V == Variant::kSerial) {
      if (active)
        distwar::reduceSerial<S>(b, key, threshold);
    } else if constexpr (V == Variant::kKept) {
      if (active)
        reduceKept<S>(b, key, threshold, addrOf);
    } else if constexpr (V == Variant::kButterfly) {
      distwar::reduceButterfly<S>(b, active, key, threshold);
    } else {
      distwar::reduceButterflyUniform<S>(b, active, key, threshold);
    }
  } else {
    if constexpr (V == Variant::kPlain) {
      if (active)
        distwar::reducePlain(b, addrOf);
    } else if constexpr (V == Variant::kSerial) {
      if (active)
        distwar::reduceSerial<S>(b, key, threshold, addrOf);
    } else if constexpr (V == Variant::kKept) {
      if (active)
        reduceKept<S>(b, key, threshold, addrOf);
    } else if constexpr (V == Variant::kButterfly) {
      distwar::reduceButterfly<S>(b, active, key, threshold, addrOf);
    } else {
      distwar::reduceButterflyUniform<S>(b, active, key, threshold, addrOf);
    }
  }
}

template <Variant V, typename S, typename T, int N, bool Deferred, bool Always,
          bool Lane, bool Consecutive, bool Adjacent>
__global__ void reduceKernel(T *out, const T *vals, const int *keys,
                             const unsigned char *flags, int n, int threshold,
                             unsigned nullFields, unsigned absentFields) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) // edge tile
    return;
  const unsigned char f = flags[i];
  if (f & kExit) // a lane that returned early
    return;
  const bool active = f & kActive;
  const int key = keys[i];
  BatchUnderTest<T, N, Deferred, Always, Lane, Consecutive, Adjacent> b;
  auto element = [&](int k) {
    return &out[key * N + elementOf(key, k, N, Consecutive || Adjacent)];
  };
  if (active) {
#pragma unroll
    for (int k = 0; k < N; ++k)
      if (!((absentFields >> k) & 1u) && // a condition false in every lane
          (!Lane || k == 0 || laneSets(i, k))) // one that differs by lane
        b.set(k, (nullFields >> k) & 1u ? nullptr : element(k),
              vals[i * N + k]);
  }
  auto addrOf = [&](int slot) -> T * {
    if (slot >= 0 && slot < N) {
      const int k = slot;
      return (nullFields >> k) & 1u ? nullptr : element(k);
    }
    return nullptr;
  };
  using AddrOf = std::conditional_t<Deferred, decltype(addrOf), NoAddrOf>;
  const AddrOf addresses = [&] {
    if constexpr (Deferred)
      return addrOf;
    else
      return NoAddrOf{};
  }();
  auto run = [&](auto k) {
    if constexpr (V == Variant::kTogether) {
      if (active)
        reduceTogether<S>(b, k, threshold, addresses, out, vals);
    } else {
      reduceOne<V, S>(b, active, k, threshold, addresses);
    }
  };
  if (f & kSplit) {
    // Two call sites: lanes may reach them at different times.
    if (threadIdx.x & 1) {
      __nanosleep(200);
      run(key);
    } else {
      run(static_cast<long long>(key));
    }
  } else {
    run(key);
  }
}

struct Pattern {
  const char *name;
  bool uniformKey; // active lanes of a warp share one key
};

const Pattern kPatterns[] = {
    {"all", true},     {"none", true},      {"one", true},
    {"random", true},  {"keys2to4", false}, {"perLaneKeys", false},
    {"partial", true}, {"edge", true},      {"split", true}};

struct Inputs {
  int n = kThreads;
  std::vector<int> keys;
  std::vector<unsigned char> flags;
};

inline Inputs makeInputs(const std::string &pattern, std::mt19937 &rng) {
  Inputs in;
  in.keys.resize(kThreads);
  in.flags.assign(kThreads, kActive);
  std::vector<int> oneLane(kWarps);
  std::vector<int> keysInWarp(kWarps);
  for (int w = 0; w < kWarps; ++w) {
    oneLane[w] = static_cast<int>(rng() % 32);
    keysInWarp[w] = 2 + static_cast<int>(rng() % 3);
  }
  for (int i = 0; i < kThreads; ++i) {
    const int warp = i / 32, lane = i % 32;
    int sub = 0;
    unsigned char f = kActive;
    if (pattern == "none")
      f = 0;
    else if (pattern == "one")
      f = lane == oneLane[warp] ? kActive : 0;
    else if (pattern == "random")
      f = rng() % 2 ? kActive : 0;
    else if (pattern == "keys2to4")
      sub = static_cast<int>(rng() % keysInWarp[warp]);
    else if (pattern == "perLaneKeys")
      sub = lane;
    else if (pattern == "partial")
      f = rng() % 10 < 3 ? kExit : kActive;
    else if (pattern == "split")
      f = kActive | kSplit;
    // Inactive lanes carry a different key: only active lanes' keys count.
    if (!(f & kActive))
      sub = 1 + static_cast<int>(rng() % 31);
    in.keys[i] = warp * 32 + sub;
    in.flags[i] = f;
  }
  if (pattern == "edge")
    in.n = kThreads - 13;
  return in;
}

using gpucheck::randomValue;
using gpucheck::typeName;

inline const char *variantName(Variant v) {
  return v == Variant::kPlain       ? "plain"
         : v == Variant::kSerial    ? "serial"
         : v == Variant::kKept      ? "serial, kept peers"
         : v == Variant::kTogether  ? "serial, together with a second part"
         : v == Variant::kButterfly ? "butterfly"
                                    : "uniform";
}

struct Options {
  bool small = false;
};

template <Variant V, typename S, typename T, int N, bool Deferred = false,
          bool Always = false, bool Lane = false, bool Consecutive = false,
          bool Adjacent = false>
void runCase(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt) {
  const int thresholds[] = {0, 1, 16, 32, 33};
  T *dOut, *dVals;
  int *dKeys;
  unsigned char *dFlags;
  gpucheck::require(cudaMalloc(&dOut, sizeof(T) * kKeys * N), "cudaMalloc");
  gpucheck::require(cudaMalloc(&dVals, sizeof(T) * kThreads * N), "cudaMalloc");
  gpucheck::require(cudaMalloc(&dKeys, sizeof(int) * kThreads), "cudaMalloc");
  gpucheck::require(cudaMalloc(&dFlags, kThreads), "cudaMalloc");
  const T base = T(3);
  for (const Pattern &pattern : kPatterns) {
    if (V == Variant::kUniform && !pattern.uniformKey)
      continue; // the caller's promise would not hold
    for (int t : thresholds) {
      if (opt.small && t != 0 && t != 16)
        continue;
      Inputs in = makeInputs(pattern.name, rng);
      std::vector<T> vals(kThreads * N);
      for (T &v : vals)
        v = randomValue<T>(rng);
      // A null address only where the batch tracks the slot and a condition
      // uniform across the lanes of a key leaves it unset.
      const unsigned nullFields =
          Lane ? 0u
          : (N >= 3 && (t == 1 || t == 32)) ? (Always ? 1u << (N - 1) : 2u)
                                            : 0u;
      // A tracked slot set by no lane at all (the runtime skips its tree).
      const unsigned absentFields =
          (N >= 2 && (t == 0 || t == 16)) ? (Always || Lane ? 1u << (N - 1) : 1u)
                                          : 0u;
      std::vector<T> out(kKeys * N, base);
      gpucheck::require(cudaMemcpy(dOut, out.data(), sizeof(T) * out.size(),
                                   cudaMemcpyHostToDevice),
                        "cudaMemcpy");
      gpucheck::require(cudaMemcpy(dVals, vals.data(), sizeof(T) * vals.size(),
                                   cudaMemcpyHostToDevice),
                        "cudaMemcpy");
      gpucheck::require(cudaMemcpy(dKeys, in.keys.data(),
                                   sizeof(int) * kThreads,
                                   cudaMemcpyHostToDevice),
                        "cudaMemcpy");
      gpucheck::require(
          cudaMemcpy(dFlags, in.flags.data(), kThreads, cudaMemcpyHostToDevice),
          "cudaMemcpy");
      const std::string what =
          std::string(variantName(V)) +
          (V == Variant::kPlain ? "" : std::string(" strategy ") + S::kName) +
          " " + typeName<T>() + " N=" + std::to_string(N) + " " + pattern.name +
          " threshold " + std::to_string(t) +
          (absentFields ? " (a slot absent)" : "") +
          (Deferred ? " (deferred addresses)" : "") +
          (Always ? " (AlwaysSet<0, N - 1>)" : "") +
          (Lane ? " (LaneSet<1, N>)" : "") +
          (Consecutive ? " (Consecutive)" : "") +
          (Adjacent ? " (Adjacent run)" : "");
      reduceKernel<V, S, T, N, Deferred, Always, Lane, Consecutive, Adjacent>
          <<<kThreads / kBlock, kBlock>>>(dOut, dVals, dKeys, dFlags, in.n, t,
                                          nullFields, absentFields);
      gpucheck::require(cudaGetLastError(), what.c_str());
      gpucheck::waitOrDie(what);
      gpucheck::require(cudaMemcpy(out.data(), dOut, sizeof(T) * out.size(),
                                   cudaMemcpyDeviceToHost),
                        "cudaMemcpy");

      // Reference: what plain atomics add, summed in double (floats) or in
      // the type itself (integers: exact, wrap-around included).
      std::vector<T> refInt(kKeys * N, base);
      std::vector<double> refSum(kKeys * N, static_cast<double>(base));
      std::vector<double> magnitude(kKeys * N, std::fabs(double(base)));
      for (int i = 0; i < in.n; ++i) {
        if ((in.flags[i] & kExit) || !(in.flags[i] & kActive))
          continue;
        for (int k = 0; k < N; ++k) {
          // The second part sets every field.
          if (V == Variant::kTogether) {
            const size_t second =
                static_cast<size_t>(togetherKey(i, in.keys[i])) * N + k;
            refInt[second] += vals[i * N + k];
            refSum[second] += static_cast<double>(vals[i * N + k]);
            magnitude[second] +=
                std::fabs(static_cast<double>(vals[i * N + k]));
          }
          if ((((nullFields | absentFields) >> k) & 1u) ||
              (Lane && k > 0 && !laneSets(i, k)))
            continue;
          const size_t slot =
              static_cast<size_t>(in.keys[i]) * N +
              elementOf(in.keys[i], k, N, Consecutive || Adjacent);
          refInt[slot] += vals[i * N + k];
          refSum[slot] += static_cast<double>(vals[i * N + k]);
          magnitude[slot] += std::fabs(static_cast<double>(vals[i * N + k]));
        }
      }
      bool ok = true;
      for (size_t s = 0; s < out.size() && ok; ++s) {
        if constexpr (std::is_floating_point<T>::value) {
          const double tol =
              (std::is_same<T, float>::value ? 1e-6 : 1e-12) * magnitude[s];
          ok = std::fabs(static_cast<double>(out[s]) - refSum[s]) <= tol;
        } else {
          ok = out[s] == refInt[s];
        }
        if (!ok)
          std::printf("  slot %zu (key %zu field %zu): got %.17g want %.17g\n",
                      s, s / N, s % N, static_cast<double>(out[s]),
                      std::is_floating_point<T>::value
                          ? refSum[s]
                          : static_cast<double>(refInt[s]));
      }
      tally.check(ok, what);
    }
  }
  cudaFree(dOut);
  cudaFree(dVals);
  cudaFree(dKeys);
  cudaFree(dFlags);
}

/// Each reduction with each of \p Strategies, batch form.
template <typename T, int N, typename... Strategies>
void runEveryStrategy(gpucheck::Tally &tally, std::mt19937 &rng,
                      const Options &opt) {
  (runCase<Variant::kSerial, Strategies, T, N>(tally, rng, opt), ...);
  (runCase<Variant::kKept, Strategies, T, N>(tally, rng, opt), ...);
  (runCase<Variant::kButterfly, Strategies, T, N>(tally, rng, opt), ...);
  (runCase<Variant::kUniform, Strategies, T, N>(tally, rng, opt), ...);
}

template <typename T, int N>
void runSize(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt) {
  // The unreduced baseline, both forms (it takes no strategy).
  runCase<Variant::kPlain, strategy::Leader, T, N>(tally, rng, opt);
  runCase<Variant::kPlain, strategy::Leader, T, N, true>(tally, rng, opt);
  runEveryStrategy<T, N, strategy::Leader, strategy::TreeLaneK,
                   strategy::ScatterLaneK, strategy::ScatterLeader>(tally, rng,
                                                                    opt);
  // Deferred addresses (Fields + addrOf).
  runCase<Variant::kSerial, strategy::Leader, T, N, true>(tally, rng, opt);
  runCase<Variant::kSerial, strategy::ScatterLaneK, T, N, true>(tally, rng,
                                                                opt);
  runCase<Variant::kKept, strategy::ScatterLeader, T, N, true>(tally, rng, opt);
  runCase<Variant::kButterfly, strategy::Leader, T, N, true>(tally, rng, opt);
  runCase<Variant::kButterfly, strategy::TreeLaneK, T, N, true>(tally, rng,
                                                                opt);
  runCase<Variant::kButterfly, strategy::ScatterLaneK, T, N, true>(tally, rng,
                                                                   opt);
  runCase<Variant::kUniform, strategy::Leader, T, N, true>(tally, rng, opt);
  runCase<Variant::kSerial, strategy::ScatterLeader, T, N, true>(tally, rng,
                                                                 opt);
  runCase<Variant::kUniform, strategy::ScatterLeader, T, N, true>(tally, rng,
                                                                  opt);
  // AlwaysSet ranges (the rewriter's output), both forms.
  if constexpr (N >= 2) {
    runCase<Variant::kSerial, strategy::Leader, T, N, true, true>(tally, rng,
                                                                  opt);
    runCase<Variant::kSerial, strategy::ScatterLaneK, T, N, false, true>(
        tally, rng, opt);
    runCase<Variant::kButterfly, strategy::Leader, T, N, false, true>(tally,
                                                                      rng, opt);
    runCase<Variant::kButterfly, strategy::ScatterLaneK, T, N, true, true>(
        tally, rng, opt);
    runCase<Variant::kUniform, strategy::ScatterLeader, T, N, true, true>(
        tally, rng, opt);
    runCase<Variant::kUniform, strategy::Leader, T, N, true, true>(tally, rng,
                                                                   opt);
    runCase<Variant::kUniform, strategy::TreeLaneK, T, N, false, true>(
        tally, rng, opt);
    runCase<Variant::kPlain, strategy::Leader, T, N, true, true>(tally, rng,
                                                                 opt);
    // LaneSet ranges (fields under a per-lane condition), both forms.
    runCase<Variant::kPlain, strategy::Leader, T, N, false, false, true>(
        tally, rng, opt);
    runCase<Variant::kSerial, strategy::Leader, T, N, true, false, true>(
        tally, rng, opt);
    runCase<Variant::kSerial, strategy::ScatterLaneK, T, N, false, false, true>(
        tally, rng, opt);
    runCase<Variant::kButterfly, strategy::ScatterLaneK, T, N, true, false,
            true>(tally, rng, opt);
    runCase<Variant::kButterfly, strategy::Leader, T, N, false, false, true>(
        tally, rng, opt);
    runCase<Variant::kUniform, strategy::ScatterLeader, T, N, true, false,
            true>(tally, rng, opt);
    runCase<Variant::kUniform, strategy::TreeLaneK, T, N, true, false, true>(
        tally, rng, opt);
    runCase<Variant::kSerial, strategy::TreeLaneK, T, N, false, false, true>(
        tally, rng, opt);
    runCase<Variant::kKept, strategy::ScatterLeader, T, N, true, true>(
        tally, rng, opt);
    runCase<Variant::kKept, strategy::Leader, T, N, false, false, true>(
        tally, rng, opt);
    // Consecutive batches (the one site of a versioned channel loop): the
    // issuing lanes' sums handed round lane after lane (issueCoalesced),
    // beside lanes whose fields are reversed (elementOf).
    runCase<Variant::kSerial, strategy::ScatterLeader, T, N, true, false, false,
            true>(tally, rng, opt);
    runCase<Variant::kSerial, strategy::Leader, T, N, false, false, false,
            true>(tally, rng, opt);
    runCase<Variant::kSerial, strategy::ScatterLeader, T, N, true, true, false,
            true>(tally, rng, opt);
    runCase<Variant::kSerial, strategy::Leader, T, N, true, false, true, true>(
        tally, rng, opt);
    runCase<Variant::kKept, strategy::ScatterLeader, T, N, true, false, false,
            true>(tally, rng, opt);
    runCase<Variant::kButterfly, strategy::ScatterLeader, T, N, true, false,
            false, true>(tally, rng, opt);
    runCase<Variant::kUniform, strategy::Leader, T, N, true, false, false,
            true>(tally, rng, opt);
    runCase<Variant::kUniform, strategy::ScatterLaneK, T, N, false, true, false,
            true>(tally, rng, opt);
    // Two parts reduced together (reduceSerialTogether): joined where the
    // second key follows the first, alone where it does not.
    runCase<Variant::kTogether, strategy::ScatterLeader, T, N, true, false,
            false, true>(tally, rng, opt);
    runCase<Variant::kTogether, strategy::Leader, T, N>(tally, rng, opt);
    runCase<Variant::kTogether, strategy::ScatterLaneK, T, N, true, true>(
        tally, rng, opt);
    runCase<Variant::kTogether, strategy::ScatterLeader, T, N, true, false,
            true>(tally, rng, opt);
    // Adjacent runs (members of a struct element): vector atomics where a
    // run's fields are set, adjacent and aligned (sm_90, floats), field by
    // field elsewhere (odd keys reversed, null and absent slots).
    runCase<Variant::kPlain, strategy::Leader, T, N, false, true, false, false,
            true>(tally, rng, opt);
    runCase<Variant::kSerial, strategy::ScatterLeader, T, N, true, false, false,
            false, true>(tally, rng, opt);
    runCase<Variant::kSerial, strategy::Leader, T, N, false, true, false, false,
            true>(tally, rng, opt);
    runCase<Variant::kSerial, strategy::TreeLaneK, T, N, true, false, true,
            false, true>(tally, rng, opt);
    runCase<Variant::kKept, strategy::ScatterLeader, T, N, false, true, false,
            false, true>(tally, rng, opt);
    runCase<Variant::kButterfly, strategy::ScatterLeader, T, N, true, true,
            false, false, true>(tally, rng, opt);
    runCase<Variant::kButterfly, strategy::ScatterLaneK, T, N, false, false,
            false, false, true>(tally, rng, opt);
    runCase<Variant::kUniform, strategy::Leader, T, N, true, false, true, false,
            true>(tally, rng, opt);
    runCase<Variant::kTogether, strategy::ScatterLeader, T, N, true, true,
            false, false, true>(tally, rng, opt);
  }
}

template <typename T>
void runType(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt) {
  if (opt.small) {
    runSize<T, 3>(tally, rng, opt);
    runSize<T, 9>(tally, rng, opt);
    return;
  }
  runSize<T, 1>(tally, rng, opt);
  runSize<T, 3>(tally, rng, opt);
  runSize<T, 9>(tally, rng, opt);
  runSize<T, 17>(tally, rng, opt);
}

/// Every case of element type T.
void runFloat(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt);
void runUnsignedLongLong(gpucheck::Tally &tally, std::mt19937 &rng,
                         const Options &opt);
void runDouble(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt);
void runInt(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt);

} // namespace reducetest

#endif
