//===- BlockReduceTest.cu - The block strategy against CPU sums -----------===//
//
// distwar::reduceBlock (distwar/block_reduce.cuh) against double sums on the
// CPU, on fresh random inputs, with every output poisoned to a base value
// first (fields that nothing adds to must keep it exactly). Each kernel runs
// a loop of calls between blockBegin and blockEnd, as generated code does.
//
// Element types float, double and int; keys of int, unsigned, long long and
// unsigned long long. Site values: 0 (the serial reduction), 12, 33 (plain
// atomics) and 34 (the block strategy), as a UniformThreshold, as an int
// that is the same in every lane, and as an int that differs between lanes
// (lanes vote; none may take another path than its warp). Keys: few (heavy
// sharing within warps and blocks), many (a table of 4 entries overflows to
// global atomics), negative ones and ones above INT_MAX (never in the table:
// the overflow path). Batches: every slot tracked (present per key, some
// fields absent: addrOf returns nullptr), all slots but the last always set,
// LaneSet slots (set by some lanes of a key and not by others), and a batch
// of 40 fields (the table keeps 8, set() adds the rest). Lanes that skip
// iterations, calls under a lane-dependent if/else (two sites on one table,
// one arm delayed), a partial last warp, multi-warp blocks and many blocks
// contending for the same global sums. Floats within a relative 1e-5 (double
// 1e-12) of the sum of magnitudes, ints exact. Where the block strategy runs
// on few keys, the table must have taken every sum: addrOf is called only by
// blockEnd, once per (block, key, field) at most.
//
// `--small` runs a subset for compute-sanitizer; a number argument is the
// seed (printed at the start).
//
//===----------------------------------------------------------------------===//
#include "GpuCheck.h"

#include <distwar/runtime.cuh>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using gpucheck::download;
using gpucheck::upload;

constexpr int kIters = 6;
constexpr int kRows = 64;

/// How the batch's slots are set (its AlwaysSet/LaneSet ranges).
enum class Form { kTracked, kAlways, kLane, kLong };

template <typename T, int N, Form F>
using BatchOf = std::conditional_t<
    F == Form::kTracked, distwar::Fields<T, N>,
    std::conditional_t<
        F == Form::kAlways, distwar::Fields<T, N, distwar::AlwaysSet<0, N - 1>>,
        std::conditional_t<F == Form::kLane,
                           distwar::Fields<T, N, distwar::AlwaysSet<0, 1>,
                                           distwar::LaneSet<1, N>>,
                           distwar::Fields<T, N, distwar::AlwaysSet<0, N>>>>>;

/// How the site's value reaches reduceBlock.
enum ThresholdMode : int {
  kUniform = 0, // a UniformThreshold
  kSameInt = 1, // an int, the same in every lane
  kLaneInt = 2, // an int: the site's value in even lanes, 34 in odd ones
};

/// Per lane and iteration: bit 0, the lane calls (pattern 0: the one site;
/// pattern 1: the else arm); bit 1, it calls the if arm (pattern 1).
enum Call : unsigned char { kCalls = 1, kIfArm = 2 };

template <typename T> struct Inputs {
  const long long *keys;      // threads * kIters, the key's bits
  const unsigned char *calls; // threads * kIters
  const T *values;            // threads * kIters * N
  T *out;                     // kRows * N
  unsigned long long *addrCalls;
  int threshold;
  int mode;    // ThresholdMode
  int pattern; // 0: `if (calls)`, 1: an if/else of two sites
};

/// The output row of a key: its bits as an unsigned 64-bit number, so that
/// the table's int, the caller's key and the CPU agree.
__host__ __device__ inline int rowOf(unsigned long long key) {
  return static_cast<int>(key % kRows);
}

/// Whether tracked slot k is set for `key` (the same in every lane of a key,
/// as a condition uniform per primitive is).
__host__ __device__ inline bool slotPresent(unsigned long long key, int k) {
  return ((key * 0x9e3779b97f4a7c15ull) >> (40 + k)) % 4 != 0;
}

/// Whether addrOf has no address for tracked field k of `row`.
__host__ __device__ inline bool fieldAbsent(int row, int k) {
  return (row * 5 + k * 3) % 7 == 0;
}

/// Whether the lane of global thread `thread` sets LaneSet slot k in
/// iteration `it`: about half the lanes of a key.
__host__ __device__ inline bool laneSets(int thread, int it, int k) {
  return ((static_cast<unsigned>(thread * kIters + it) * 2654435761u) >>
          (k + 7)) &
         1u;
}

template <Form F, int N> __host__ __device__ inline bool tracked(int k) {
  return F == Form::kTracked || (F == Form::kAlways && k == N - 1) ||
         (F == Form::kLane && k >= 1);
}

/// Whether the lane sets slot k of its batch.
template <Form F, int N>
__host__ __device__ inline bool setsSlot(unsigned long long key, int thread,
                                         int it, int k) {
  switch (F) {
  case Form::kTracked:
    return slotPresent(key, k);
  case Form::kAlways:
    return k < N - 1 || slotPresent(key, k);
  case Form::kLane:
    return k == 0 || laneSets(thread, it, k);
  case Form::kLong:
    return true;
  }
  return true;
}

template <Form F, int N, typename T>
__device__ T *fieldAddress(T *out, unsigned long long key, int k) {
  const int row = rowOf(key);
  if (tracked<F, N>(k) && fieldAbsent(row, k))
    return nullptr;
  return &out[row * N + k];
}

template <typename Slots, typename B, typename Key, typename T, typename AddrOf>
__device__ void reduceWith(Slots &slots, const B &b, Key key,
                           const Inputs<T> &in, const AddrOf &addrOf) {
  if (in.mode == kUniform) {
    distwar::reduceBlock(slots, b, key,
                         distwar::UniformThreshold::trusted(in.threshold),
                         addrOf);
  } else if (in.mode == kSameInt) {
    distwar::reduceBlock(slots, b, key, in.threshold, addrOf);
  } else {
    const int mine =
        distwar::detail::laneId() & 1 ? distwar::kBlockStrategy : in.threshold;
    distwar::reduceBlock(slots, b, key, mine, addrOf);
  }
}

template <typename T, int N, Form F, typename Key, int Cap>
__global__ void blockKernel(Inputs<T> in) {
  __shared__ distwar::BlockSlots<T, N, Cap> slots;
  distwar::blockBegin(slots);
  const int thread = blockIdx.x * distwar::detail::threadsInBlock() +
                     distwar::detail::threadRankInBlock();
  // Counts its calls: on few keys with the block strategy, only blockEnd
  // calls it.
  const auto addrOf = [&](auto key, int k) -> T * {
    atomicAdd(in.addrCalls, 1ull);
    return fieldAddress<F, N>(in.out, static_cast<unsigned long long>(key), k);
  };
  for (int it = 0; it < kIters; ++it) {
    const int idx = thread * kIters + it;
    const Key key = static_cast<Key>(in.keys[idx]);
    const unsigned long long bits = static_cast<unsigned long long>(key);
    const unsigned char call = in.calls[idx];
    // Slots are set only by lanes that reach a site, as the atomics were
    // (a batch of 40 adds its slots past the 8th at set()).
    const bool calls = call & (in.pattern == 0 ? kCalls : kCalls | kIfArm);
    BatchOf<T, N, F> b;
#pragma unroll
    for (int k = 0; k < N; ++k)
      if (calls && setsSlot<F, N>(bits, thread, it, k))
        b.set(k, fieldAddress<F, N>(in.out, bits, k), in.values[idx * N + k]);
    if (in.pattern == 0) {
      if (call & kCalls)
        reduceWith(slots, b, key, in, addrOf);
    } else if (call & kIfArm) {
      // Two sites on one table: the arms may reach them at different times.
      __nanosleep(100);
      reduceWith(slots, b, key, in, addrOf);
    } else if (call & kCalls) {
      reduceWith(slots, b, key, in, addrOf);
    }
  }
  distwar::blockEnd(slots, addrOf);
}

enum class Keys { kFew, kMany, kNegative, kHuge };

const char *keysName(Keys k) {
  switch (k) {
  case Keys::kFew:
    return "few keys";
  case Keys::kMany:
    return "many keys";
  case Keys::kNegative:
    return "negative keys";
  case Keys::kHuge:
    return "keys above INT_MAX";
  }
  return "?";
}

/// A key of type Key from distribution `d`, as its bits.
template <typename Key> long long drawKey(Keys d, std::mt19937_64 &rng) {
  const unsigned long long r = rng();
  switch (d) {
  case Keys::kFew:
    return static_cast<long long>(r % 8);
  case Keys::kMany:
    return static_cast<long long>(r % 200000);
  case Keys::kNegative:
    return static_cast<long long>(r % 80) - 40; // -1 (kEmptyKey) included
  case Keys::kHuge:
    break;
  }
  // Half small keys that the table takes, half that it cannot.
  const unsigned long long small = r % 16;
  if ((r >> 32) % 2 == 0)
    return static_cast<long long>(small);
  if (sizeof(Key) == 4) // 2^31 + small and 2^32 - 16 + small (unsigned)
    return static_cast<long long>((r >> 40) % 2 ? 0x80000000ull + small
                                                : 0xfffffff0ull + small);
  if (std::is_signed<Key>::value) // above INT_MAX, or below INT_MIN
    return (r >> 40) % 2 ? (1ll << 40) + static_cast<long long>(small)
                         : -(1ll << 40) - static_cast<long long>(small);
  return static_cast<long long>((r >> 40) % 2 ? 0x100000000ull + small
                                              : ~0ull - small);
}

template <typename T> T drawValue(std::mt19937_64 &rng) {
  if constexpr (std::is_floating_point<T>::value)
    return static_cast<T>(static_cast<int>(rng() % 2001) - 1000) / T(997);
  else
    return static_cast<T>(static_cast<int>(rng() % 201) - 100);
}

template <typename T> const char *typeName() {
  return std::is_same<T, float>::value    ? "float"
         : std::is_same<T, double>::value ? "double"
                                          : "int";
}

struct Launch {
  int block, blocks;
};

struct Case {
  Keys keys;
  Launch launch;
  int threshold;
  int mode;
  int pattern;
  double skip; // share of lane iterations that do not call
};

/// The CPU's sums of what the lanes add, per (row, field), and the sums of
/// their magnitudes.
struct Expected {
  std::vector<double> sum, magnitude;
};

/// One lane iteration's contribution to `e`.
template <typename T, int N, Form F, typename Key>
void addExpected(Expected &e, long long keyBits, int thread, int it,
                 const T *values) {
  const unsigned long long bits =
      static_cast<unsigned long long>(static_cast<Key>(keyBits));
  const int row = rowOf(bits);
  for (int k = 0; k < N; ++k) {
    if (!setsSlot<F, N>(bits, thread, it, k) ||
        (tracked<F, N>(k) && fieldAbsent(row, k)))
      continue;
    e.sum[row * N + k] += static_cast<double>(values[k]);
    e.magnitude[row * N + k] += std::fabs(static_cast<double>(values[k]));
  }
}

/// Whether `got` is what plain atomics would leave.
template <typename T>
bool matches(T got, double base, double sum, double magnitude) {
  if constexpr (std::is_floating_point<T>::value) {
    const double tolerance = std::is_same<T, float>::value ? 1e-5 : 1e-12;
    if (magnitude == 0)
      return static_cast<double>(got) == base;
    return std::fabs(static_cast<double>(got) - (base + sum)) <=
           tolerance * (magnitude + std::fabs(base));
  } else {
    return static_cast<long long>(got) ==
           static_cast<long long>(base) + static_cast<long long>(sum);
  }
}

std::string describe(const Case &c) {
  char text[200];
  std::snprintf(text, sizeof text,
                "%s, block %d x %d, threshold %d (%s), pattern %d, skip %.2f",
                keysName(c.keys), c.launch.block, c.launch.blocks, c.threshold,
                c.mode == kUniform   ? "uniform"
                : c.mode == kSameInt ? "int"
                                     : "int per lane",
                c.pattern, c.skip);
  return text;
}

template <typename T, int N, Form F, typename Key, int Cap>
void runCase(gpucheck::Tally &tally, const Case &c, std::mt19937_64 &rng,
             const char *kernelName) {
  const int threads = c.launch.block * c.launch.blocks;
  const size_t n = static_cast<size_t>(threads) * kIters;
  std::vector<long long> keys(n);
  std::vector<unsigned char> calls(n);
  std::vector<T> values(n * N);
  Expected e{std::vector<double>(kRows * N, 0.0),
             std::vector<double>(kRows * N, 0.0)};
  for (size_t i = 0; i < n; ++i) {
    keys[i] = drawKey<Key>(c.keys, rng);
    const bool calling = static_cast<double>(rng() % 1000) >= c.skip * 1000;
    const bool ifArm = c.pattern == 1 && rng() % 2 == 0;
    calls[i] = static_cast<unsigned char>((calling ? kCalls : 0) |
                                          (ifArm ? kIfArm : 0));
    for (int k = 0; k < N; ++k)
      values[i * N + k] = drawValue<T>(rng);
    if (calling || ifArm)
      addExpected<T, N, F, Key>(e, keys[i], static_cast<int>(i / kIters),
                                static_cast<int>(i % kIters), &values[i * N]);
  }
  const T base = T(3);
  Inputs<T> in{upload(keys), upload(calls), upload(values), nullptr,
               nullptr,      c.threshold,   c.mode,         c.pattern};
  in.out = upload(std::vector<T>(kRows * N, base));
  gpucheck::require(cudaMalloc(&in.addrCalls, sizeof(unsigned long long)),
                    "cudaMalloc");
  gpucheck::require(cudaMemset(in.addrCalls, 0, sizeof(unsigned long long)),
                    "cudaMemset");
  const std::string what = std::string(kernelName) + ", " + describe(c);
  blockKernel<T, N, F, Key, Cap><<<c.launch.blocks, c.launch.block>>>(in);
  gpucheck::require(cudaGetLastError(), what.c_str());
  gpucheck::waitOrDie(what);
  const std::vector<T> got = download(in.out, kRows * N);
  const unsigned long long addrCalls = download(in.addrCalls, 1)[0];
  size_t wrong = 0, first = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    if (!matches(got[i], static_cast<double>(base), e.sum[i], e.magnitude[i])) {
      ++wrong;
      first = first < i ? first : i;
    }
  }
  std::string detail;
  if (wrong) {
    char text[160];
    std::snprintf(text, sizeof text,
                  ": %zu of %zu sums differ (first: row %zu field %zu, got "
                  "%.9g, want %.9g)",
                  wrong, got.size(), first / N, first % N,
                  static_cast<double>(got[first]),
                  static_cast<double>(base) + e.sum[first]);
    detail = text;
  }
  tally.check(wrong == 0, what + detail);
  // On few keys the block strategy's table takes every sum: no overflow.
  if (c.threshold >= distwar::kBlockStrategy && c.keys == Keys::kFew &&
      Cap >= 8) {
    const unsigned long long most =
        static_cast<unsigned long long>(c.launch.blocks) * 8 *
        distwar::BlockSlots<T, N, Cap>::kFields;
    tally.check(addrCalls <= most, what + ": " + std::to_string(addrCalls) +
                                       " addrOf calls, at most " +
                                       std::to_string(most) +
                                       " from blockEnd alone");
  }
  cudaFree(const_cast<long long *>(in.keys));
  cudaFree(const_cast<unsigned char *>(in.calls));
  cudaFree(const_cast<T *>(in.values));
  cudaFree(in.out);
  cudaFree(in.addrCalls);
}

struct Options {
  bool small = false;
};

/// Every case one kernel instantiation runs: its key distributions x site
/// values x call patterns x launches.
template <typename T, int N, Form F, typename Key, int Cap>
void runKernel(gpucheck::Tally &tally, std::mt19937_64 &rng, const Options &opt,
               const char *name) {
  std::vector<Keys> dists = {Keys::kFew, Keys::kMany};
  if (std::is_signed<Key>::value)
    dists.push_back(Keys::kNegative);
  if (sizeof(Key) == 8 || !std::is_signed<Key>::value)
    dists.push_back(Keys::kHuge);
  struct Site {
    int threshold, mode;
  };
  const Site sites[] = {{0, kUniform},  {34, kUniform}, {34, kSameInt},
                        {12, kSameInt}, {0, kLaneInt},  {34, kLaneInt},
                        {33, kUniform}};
  const Launch launches[] = {{256, 6}, {100, 3}};
  for (Keys d : dists) {
    for (const Site &s : sites) {
      if (opt.small && s.threshold != 34 &&
          !(s.threshold == 0 && d == dists[0]))
        continue;
      for (int pattern = 0; pattern < 2; ++pattern) {
        for (const Launch &l : launches) {
          if (opt.small && l.block != 100)
            continue;
          const double skip = pattern == 0 ? 0.3 : 0.1;
          runCase<T, N, F, Key, Cap>(
              tally, {d, l, s.threshold, s.mode, pattern, skip}, rng, name);
        }
      }
    }
  }
  if (opt.small)
    return;
  // Many blocks adding to the same few sums: the global atomics of the
  // flushes contend.
  runCase<T, N, F, Key, Cap>(
      tally, {Keys::kFew, {64, 512}, 34, kUniform, 0, 0.2}, rng, name);
  runCase<T, N, F, Key, Cap>(
      tally, {Keys::kFew, {64, 512}, 0, kUniform, 1, 0.2}, rng, name);
}

constexpr int kDefault = -1;

/// The table's capacity: BlockSlots' own, or a given one.
template <typename T, int N, int Cap> constexpr int capacityOf() {
  return Cap == kDefault ? distwar::blockSlotsCapacity<T, N>() : Cap;
}

#define DWT_RUN(T, N, F, Key, Cap)                                             \
  runKernel<T, N, F, Key, capacityOf<T, N, Cap>()>(                            \
      tally, rng, opt, #T " N=" #N " " #F " key " #Key " capacity " #Cap)

void runAll(gpucheck::Tally &tally, std::mt19937_64 &rng, const Options &opt) {
  DWT_RUN(float, 4, Form::kTracked, int, kDefault);
  DWT_RUN(float, 4, Form::kAlways, int, kDefault);
  DWT_RUN(float, 4, Form::kLane, int, kDefault);
  DWT_RUN(float, 4, Form::kAlways, int, 4);
  DWT_RUN(float, 4, Form::kLane, unsigned, kDefault);
  DWT_RUN(float, 4, Form::kTracked, long long, 4);
  DWT_RUN(float, 4, Form::kAlways, unsigned long long, kDefault);
  DWT_RUN(float, 40, Form::kLong, int, kDefault);
  DWT_RUN(double, 4, Form::kAlways, int, kDefault);
  DWT_RUN(double, 4, Form::kLane, int, 4);
  DWT_RUN(double, 4, Form::kTracked, unsigned long long, kDefault);
  DWT_RUN(int, 4, Form::kTracked, int, kDefault);
  DWT_RUN(int, 4, Form::kLane, int, 4);
  DWT_RUN(int, 4, Form::kAlways, unsigned long long, kDefault);
  DWT_RUN(int, 4, Form::kAlways, long long, kDefault);
}

#undef DWT_RUN

} // namespace

int main(int argc, char **argv) {
  gpucheck::skipWithoutDevice();
  Options opt;
  unsigned long long seed = std::random_device()();
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0)
      opt.small = true;
    else
      seed = std::strtoull(argv[i], nullptr, 0);
  }
  std::printf("seed %llu%s\n", seed, opt.small ? " (small)" : "");
  std::mt19937_64 rng(seed);
  gpucheck::Tally tally;
  runAll(tally, rng, opt);
  return tally.finish();
}
