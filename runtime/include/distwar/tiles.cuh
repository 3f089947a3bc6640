//===- distwar/tiles.cuh - Persistent blocks taking tiles from a pool -----===//
//
// Inter-block dynamic workload distribution (Balanced-3DGS, section 4.1): a
// kernel whose tiles differ widely in cost launches as many blocks as the
// device holds at once, and each block, when it finishes a tile, takes the
// next one from a counter in global memory. A block that drew a heavy tile
// keeps at it while the others drain the light ones, instead of the grid
// waiting for whichever block the static mapping gave the heaviest tiles.
//
//   __global__ void render(distwar::TileQueue *queue, unsigned tiles, ...) {
//     distwar::forEachTile(queue, tiles, [&](unsigned tile) { ... });
//   }
//
//   distwar::TileQueueOwner queue;           // host: one per stream
//   render<<<distwar::persistentBlocks(render, threads, 0, tiles), threads,
//            0, stream>>>(queue.get(), tiles, ...);
//
// The first wave is static (block b starts with tile b); later tiles come
// from the counter: a block draws its next tile when it starts one, so the
// atomic's round trip overlaps the work (each block holds at most one tile
// in reserve). The
// counter returns to zero inside the launch, with no host round trip: every
// block counts itself out when it has drawn past the end, and the last one
// out resets the pool for the next launch on the stream (stream order makes
// the reset visible to it). Two launches that run at the same time (two
// streams) need a queue each. A launch that fails midway can leave the
// counter dirty: TileQueueOwner::reset() clears it on a stream.
//
// The body runs in every thread of the block with the same tile, and may use
// block barriers: the scheduler's own barrier comes after each body returns.
// distwar-rewrite --balance=tiles writes kernels this way (tileIndex gives a
// tile its original blockIdx) and launches them through tileLaunch, which
// runs each launch in one of two modes: the persistent grid with a pool per
// stream (streamTileQueue), or the original grid with no pool, one tile per
// block, the original's own schedule. Where the rewriter found what a tile
// costs, a dynamic launch draws its tiles heaviest first: a cost kernel of
// one block writes each tile's cost and orders them (orderTilesByCost),
// and the kernel draws through that order, in a pool per stream and host
// thread (streamTileOrder). Which mode is faster depends on the data (how
// unevenly the tiles cost), so each kernel's launches choose it by timing,
// as launch tuning chooses thresholds (distwar/variant_choice.h), and the
// report says what they chose.
// The host parts (TileQueue, the grid, TileQueueOwner) compile without nvcc.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TILES_CUH
#define DISTWAR_TILES_CUH

#include "distwar/recent_answers.h"
#include "distwar/variant_launch.h"

#include <cuda_runtime.h>
#if defined(__CUDACC__)
#include <cuda/atomic>
#endif

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__GNUC__) || defined(__clang__)
#include <cxxabi.h>
#endif

namespace distwar {

/// The threads of the one block of a cost kernel (TileLaunch::costBlock()),
/// which computes every tile's cost and orders them.
constexpr unsigned kTileCostThreads = 1024;

/// The pool's state in device memory; its counts are zero between launches.
struct TileQueue {
  /// Tiles drawn beyond the first wave (one per block).
  unsigned int drawn;
  /// Blocks that have drawn past the last tile.
  unsigned int finished;
  /// The tiles in the order they are drawn (a launch's costs ordered by
  /// orderTilesByCost), or null: in launch order. Set when the pool
  /// is made; no kernel writes it.
  const unsigned int *order;
};

#if defined(__CUDACC__)
namespace detail {

__device__ __forceinline__ bool isFirstThreadOfBlock() {
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

__device__ __forceinline__ unsigned linearBlockIndex() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/// The tile drawn \p drawn-th of \p tiles: through the pool's order when it
/// has one. Past the last tile, itself (the caller's end of the pool).
__device__ __forceinline__ unsigned orderedTile(const TileQueue *queue,
                                                unsigned drawn,
                                                unsigned tiles) {
  const unsigned *order = queue ? queue->order : nullptr;
  return order && drawn < tiles ? order[drawn] : drawn;
}

/// The next tile of the pool, for the calling thread's block.
__device__ __forceinline__ unsigned drawTile(TileQueue *queue,
                                            unsigned tiles) {
  const unsigned drawn =
      gridDim.x * gridDim.y * gridDim.z + atomicAdd(&queue->drawn, 1u);
  return orderedTile(queue, drawn, tiles);
}

/// The block's first tile: its own place in the pool's order.
__device__ __forceinline__ unsigned firstTile(const TileQueue *queue,
                                             unsigned tiles) {
  return orderedTile(queue, linearBlockIndex(), tiles);
}

/// Called once per block by one thread, after the block's last draw: the
/// last block out empties the pool for the next launch. The count is a
/// release (every draw of the block happens before it) and an acquire (the
/// last block sees every other block's draws done), so no draw of this
/// launch is left when the pool is emptied; the next launch on the stream
/// sees the zeros by stream order. Not a __threadfence(): a kernel with a
/// fence gets its fire-and-forget reductions (REDG) compiled as atomics that
/// return (ATOMG), 10% of a batched backward's time.
__device__ __forceinline__ void leavePool(TileQueue *queue) {
  const unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> finished(
      queue->finished);
  if (finished.fetch_add(1u, cuda::memory_order_acq_rel) == blocks - 1) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(queue->drawn)
        .store(0u, cuda::memory_order_relaxed);
    finished.store(0u, cuda::memory_order_relaxed);
  }
}

} // namespace detail

/// Runs `body(tile)` for tiles 0..tiles-1, each in exactly one block of the
/// grid. Every thread of every block must call it (it has block barriers),
/// with the same `queue` and `tiles`; the grid may be any size.
template <typename Body>
__device__ void forEachTile(TileQueue *queue, unsigned tiles, Body &&body) {
  // The block's next tile, handed from its first thread to the others; two
  // slots, so that the write for one tile never races with a slow thread's
  // read of the previous one.
  __shared__ unsigned handOver[2];
  const bool leader = detail::isFirstThreadOfBlock();
  unsigned tile = detail::firstTile(queue, tiles);
  int slot = 0;
  while (tile < tiles) {
    // Drawn before the body and stored after it: the atomic's round trip
    // overlaps the tile's work instead of stalling the first warp.
    unsigned next = tiles;
    if (leader)
      next = detail::drawTile(queue, tiles);
    body(tile);
    if (leader)
      handOver[slot] = next;
    __syncthreads();
    tile = handOver[slot];
    slot ^= 1;
  }
  if (leader)
    detail::leavePool(queue);
}
/// forEachTile's loop for a body that is not a lambda (distwar-rewrite
/// --balance=tiles keeps a kernel's body as written, statements and
/// returns, in a loop):
///
///   for (TileCursor c(queue, tiles); c.more(); c.next()) { ... c.tile() ... }
///
/// The same draws, hand-over and barrier as forEachTile, in the same order:
/// more() draws the block's next tile before the body, next() hands it over
/// after it, behind the block barrier between tiles. Every thread of the
/// block runs the loop. A null `queue` runs block b's tile b only (a launch
/// of the original grid: tileLaunch's other mode).
///
/// `TileCursor<false>` is that other mode known at compile time: the loop
/// runs once, on the block's own tile, and compiles to the original
/// kernel's code (the rewriter makes the mode a template parameter of the
/// kernel where it can, so that the original schedule pays nothing for the
/// loop it does not use).
template <bool Dynamic = true> class TileCursor {
public:
  __device__ __forceinline__ TileCursor(TileQueue *queue, unsigned tiles)
      : queue(Dynamic ? queue : nullptr), tiles(tiles),
        current(Dynamic ? detail::firstTile(queue, tiles) : 0u), drawn(tiles),
        slot(0), leader(detail::isFirstThreadOfBlock()) {}

  /// Whether the block has a tile to run; when not, the block leaves the
  /// pool (the loop's condition is false once).
  __device__ __forceinline__ bool more() {
    if (!Dynamic)
      return current == 0u; // the original grid: every block has its tile
    if (current < tiles) {
      if (leader && queue)
        drawn = detail::drawTile(queue, tiles);
      return true;
    }
    if (leader && queue)
      detail::leavePool(queue);
    return false;
  }
  /// The tile the block runs.
  __device__ __forceinline__ unsigned tile() const {
    return Dynamic ? current : detail::linearBlockIndex();
  }
  /// The tile's place in the original grid \p grid: what blockIdx was in
  /// the block that ran it there.
  __device__ __forceinline__ uint3 index(dim3 grid) const;
  /// Hands the next tile to every thread of the block, behind a barrier.
  __device__ __forceinline__ void next() {
    // Without a pool each block runs its own tile only, as the original
    // grid did: no hand-over, no barrier.
    if (!Dynamic || !queue) {
      current = Dynamic ? tiles : 1u;
      return;
    }
    unsigned *handOver = handOverSlots();
    if (leader)
      handOver[slot] = drawn;
    __syncthreads();
    current = handOver[slot];
    slot ^= 1;
  }

private:
  /// Two slots, as forEachTile's: a write for one tile never races with a
  /// slow thread's read of the previous one.
  static __device__ __forceinline__ unsigned *handOverSlots() {
    __shared__ unsigned slots[2];
    return slots;
  }

  TileQueue *queue;
  /// Dynamic: the tile the block runs; one tile per block: 0 before it
  /// runs, 1 after.
  unsigned tiles, current, drawn;
  int slot;
  bool leader;
};

/// The place in the original grid of linear tile \p tile (x fastest, as
/// blocks are numbered), for a kernel rewritten by distwar-rewrite
/// --balance=tiles: what blockIdx was in the block that ran the tile.
__device__ __forceinline__ uint3 tileIndex(unsigned tile, dim3 grid) {
  return make_uint3(tile % grid.x, tile / grid.x % grid.y,
                    tile / (grid.x * grid.y));
}

template <bool Dynamic>
__device__ __forceinline__ uint3 TileCursor<Dynamic>::index(dim3 grid) const {
  // One tile per block runs on the original grid, where the block's own
  // index is the tile's place.
  return Dynamic ? tileIndex(current, grid) : blockIdx;
}

/// A tile's cost as distwar-rewrite's cost kernels give it: the trip count
/// of the kernel's loop, `for (v = start; v < bound; ...)`, 0 when it does
/// not run, at most UINT_MAX. Only the order of the tiles depends on it.
template <typename Start, typename Bound>
__device__ __forceinline__ unsigned tileCost(Start start, Bound bound) {
  const long long trips =
      static_cast<long long>(bound) - static_cast<long long>(start);
  return trips <= 0 ? 0u
         : trips >= static_cast<long long>(UINT_MAX)
             ? UINT_MAX
             : static_cast<unsigned>(trips);
}

namespace detail {

/// Cost 0, then four buckets per power of two (its two bits below the
/// highest): a tile is drawn before every tile of a quarter less cost.
constexpr int kCostBuckets = 1 + 4 * 32;

__device__ __forceinline__ int costBucket(unsigned cost) {
  if (cost == 0)
    return 0;
  const int high = 31 - __clz(cost);
  const unsigned below = high >= 2 ? cost >> (high - 2) : cost << (2 - high);
  return 1 + 4 * high + static_cast<int>(below & 3u);
}

} // namespace detail

/// Orders \p tiles tiles by \p costs, heaviest bucket first, into \p order:
/// a histogram, each bucket's start, then every tile placed in its bucket
/// (in whatever order the shared atomics give: a kernel balanced across
/// tiles computes the same whatever the order). Called by every thread of
/// a launch of one block (1-D, TileLaunch::costBlock()), after each wrote
/// its tiles' costs: the barrier that opens it makes them visible. One
/// launch computes and orders the costs, so that an ordered launch costs
/// the host two launches, not three.
__device__ __forceinline__ void orderTilesByCost(const unsigned *costs,
                                                 unsigned tiles,
                                                 unsigned *order) {
  using detail::costBucket;
  using detail::kCostBuckets;
  assert(gridDim.x * gridDim.y * gridDim.z == 1 && blockDim.y == 1 &&
         blockDim.z == 1 && "the tiles are ordered by one 1-D block");
  __shared__ unsigned count[kCostBuckets];
  __shared__ unsigned start[kCostBuckets];
  for (int b = threadIdx.x; b < kCostBuckets; b += blockDim.x)
    count[b] = 0;
  __syncthreads();
  for (unsigned t = threadIdx.x; t < tiles; t += blockDim.x)
    atomicAdd(&count[costBucket(costs[t])], 1u);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (int b = kCostBuckets - 1; b >= 0; --b) {
      start[b] = sum;
      sum += count[b];
    }
  }
  __syncthreads();
  for (unsigned t = threadIdx.x; t < tiles; t += blockDim.x)
    order[atomicAdd(&start[costBucket(costs[t])], 1u)] = t;
}
#endif // __CUDACC__

namespace detail {

/// Throws, naming \p where and the CUDA call \p what, when \p err is an
/// error.
inline void throwIfFailed(cudaError_t err, const char *where,
                          const char *what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string(where) + ": " + what + ": " +
                             cudaGetErrorString(err));
}

} // namespace detail

/// The grid of a persistent launch: as many blocks of `kernel` as the
/// current device holds at once, no more than `tiles`, at least one.
template <typename Kernel>
unsigned persistentBlocks(Kernel kernel, int threadsPerBlock,
                          size_t dynamicSharedBytes, unsigned tiles) {
  const char *const where = "distwar::persistentBlocks";
  int device = 0, sms = 0, perSM = 0;
  detail::throwIfFailed(cudaGetDevice(&device), where, "cudaGetDevice");
  detail::throwIfFailed(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
      where, "cudaDeviceGetAttribute");
  detail::throwIfFailed(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                            &perSM, kernel, threadsPerBlock,
                            dynamicSharedBytes),
                        where, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const unsigned resident = static_cast<unsigned>(std::max(1, sms * perSM));
  return std::max(1u, std::min(resident, tiles));
}

/// persistentBlocks(), queried once per kernel, block size, shared memory
/// and device: the occupancy query costs microseconds of host time, a launch
/// a few.
template <typename Kernel>
unsigned cachedPersistentBlocks(Kernel kernel, int threadsPerBlock,
                                size_t dynamicSharedBytes, unsigned tiles) {
  using Key = std::tuple<int, const void *, int, size_t>;
  static std::mutex mutex;
  static std::map<Key, unsigned> resident;
  int device = 0;
  detail::throwIfFailed(cudaGetDevice(&device),
                        "distwar::cachedPersistentBlocks", "cudaGetDevice");
  const Key key(device, reinterpret_cast<const void *>(kernel),
                threadsPerBlock, dynamicSharedBytes);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = resident.find(key);
  if (it == resident.end())
    it = resident
             .emplace(key, persistentBlocks(kernel, threadsPerBlock,
                                            dynamicSharedBytes, ~0u))
             .first;
  return std::max(1u, std::min(it->second, tiles));
}

/// Owns one zeroed TileQueue in device memory (on the device current at
/// construction).
class TileQueueOwner {
public:
  TileQueueOwner() {
    check(cudaMalloc(&queue, sizeof(TileQueue)), "cudaMalloc");
    check(cudaMemset(queue, 0, sizeof(TileQueue)), "cudaMemset");
  }
  ~TileQueueOwner() { cudaFree(queue); }
  TileQueueOwner(const TileQueueOwner &) = delete;
  TileQueueOwner &operator=(const TileQueueOwner &) = delete;

  TileQueue *get() const {
    assert(queue && "a TileQueueOwner always holds its queue");
    return queue;
  }
  /// Empties the pool on `stream`, after a launch that failed midway.
  void reset(cudaStream_t stream) {
    check(cudaMemsetAsync(queue, 0, sizeof(TileQueue), stream),
          "cudaMemsetAsync");
  }

private:
  static void check(cudaError_t err, const char *what) {
    detail::throwIfFailed(err, "distwar::TileQueueOwner", what);
  }
  TileQueue *queue = nullptr;
};

/// A pool whose tiles are drawn in an order made for each launch, and the
/// room for it: the launch's cost of each tile (which distwar-rewrite's
/// cost kernels write) and the order (orderTilesByCost).
class TileOrderOwner {
public:
  TileOrderOwner() = default;
  ~TileOrderOwner() {
    cudaFree(costs);
    cudaFree(order);
  }
  TileOrderOwner(const TileOrderOwner &) = delete;
  TileOrderOwner &operator=(const TileOrderOwner &) = delete;

  /// Room for \p tiles tiles, used on \p stream: a larger one waits for
  /// the stream's work on the old one first.
  void reserve(unsigned tiles, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mutex);
    if (tiles <= capacity)
      return;
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    cudaFree(costs);
    cudaFree(order);
    costs = order = nullptr;
    capacity = 0;
    const unsigned room = std::max(tiles, 1024u);
    check(cudaMalloc(&costs, sizeof(unsigned) * room), "cudaMalloc");
    check(cudaMalloc(&order, sizeof(unsigned) * room), "cudaMalloc");
    publishOrder(stream);
    capacity = room;
  }
  TileQueue *queue() const { return pool.get(); }
  unsigned *tileCosts() const { return costs; }
  unsigned *tileOrder() const { return order; }
  /// Empties the pool on `stream` (TileQueueOwner::reset), its room and
  /// order kept.
  void reset(cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mutex);
    pool.reset(stream);
    if (order)
      publishOrder(stream);
  }

private:
  static void check(cudaError_t err, const char *what) {
    detail::throwIfFailed(err, "distwar::TileOrderOwner", what);
  }
  /// Points the pool's order at ours (reset() zeroes it), in stream order,
  /// and waits for the copy (its source is on this stack).
  void publishOrder(cudaStream_t stream) {
    const unsigned *drawOrder = order;
    check(cudaMemcpyAsync(&pool.get()->order, &drawOrder, sizeof drawOrder,
                          cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  TileQueueOwner pool;
  std::mutex mutex;
  unsigned *costs = nullptr, *order = nullptr;
  unsigned capacity = 0;
};

namespace detail {

/// The \p Owner of launches on \p stream (on the current device), made on
/// the first launch there and kept for the program's life. The default
/// streams are one per host thread here: with per-thread default streams
/// two threads' launches on `0` may run at once. With \p PerThread every
/// stream's owner is one per host thread too: a launch that issues several
/// kernels on its owner's buffers (the costs, the order, the kernel) would
/// have them interleaved with another thread's on a shared stream. A stream
/// destroyed while its launches still run, and a new one created at the
/// same address, would share one: destroy streams after their work. Its
/// first use allocates (not inside a CUDA graph's stream capture).
template <typename Owner, bool PerThread = false>
Owner &streamOwned(cudaStream_t stream) {
  using Key = std::tuple<int, cudaStream_t, std::thread::id>;
  static std::mutex mutex;
  // Never freed: a destructor at exit may run after the CUDA context is gone
  // (and so the pointers a thread remembers stay good).
  static auto *owners = new std::map<Key, Owner *>();
  thread_local RecentAnswers<std::pair<int, cudaStream_t>, Owner *> recent;
  int device = 0;
  detail::throwIfFailed(cudaGetDevice(&device), "distwar: a tile pool",
                        "cudaGetDevice");
  if (Owner *const *known = recent.find({device, stream}))
    return **known;
  const bool shared = PerThread || stream == nullptr ||
                      stream == cudaStreamLegacy ||
                      stream == cudaStreamPerThread;
  const Key key(device, stream,
                shared ? std::this_thread::get_id() : std::thread::id());
  std::lock_guard<std::mutex> lock(mutex);
  Owner *&owner = (*owners)[key];
  if (!owner) {
    owner = new Owner();
    // The owner zeroes its pool on the legacy stream, which a non-blocking
    // stream does not wait for: zero it again in the launch's order.
    owner->reset(stream);
  }
  recent.remember({device, stream}, owner);
  return *owner;
}

} // namespace detail

/// The pool of launches on \p stream (detail::streamOwned says when it is
/// made and shared); its tiles are drawn in launch order.
inline TileQueue *streamTileQueue(cudaStream_t stream) {
  return detail::streamOwned<TileQueueOwner>(stream).get();
}

/// The pool of launches on \p stream from this host thread whose tiles are
/// drawn in an order made for each launch, with room for \p tiles tiles.
inline TileOrderOwner &streamTileOrder(cudaStream_t stream, unsigned tiles) {
  TileOrderOwner &owner =
      detail::streamOwned<TileOrderOwner, /*PerThread=*/true>(stream);
  owner.reserve(tiles, stream);
  return owner;
}

/// The tiles of \p grid: its blocks, which must number fewer than 2^32.
inline unsigned tileCount(dim3 grid) {
  const unsigned long long n = 1ull * grid.x * grid.y * grid.z;
  if (n > UINT_MAX)
    throw std::runtime_error("distwar::tileCount: more than 2^32 - 1 blocks");
  return static_cast<unsigned>(n);
}

/// The two ways tileLaunch runs a kernel rewritten by --balance=tiles, the
/// variants of its choice (distwar/variant_choice.h).
enum class TileMode {
  /// The persistent grid, tiles drawn from the stream's pool.
  kDynamic = 0,
  /// The original grid, block b running tile b: the original schedule, for
  /// data whose tiles cost the same (the pool's barrier between tiles and
  /// its draws then buy nothing).
  kOnePerBlock = 1,
};

namespace detail {

/// `ns::k<3u>` of a demangled `void ns::k<3u>(int*, float)`: no return
/// type, no parameters.
inline std::string qualifiedName(const std::string &demangled) {
  std::string name = demangled;
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      depth += name[i] == ')' ? 1 : name[i] == '(' ? -1 : 0;
      if (depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    depth += (c == '<' || c == '(') ? 1 : (c == '>' || c == ')') ? -1 : 0;
    if (c == ' ' && depth == 0)
      start = i + 1;
  }
  return name.substr(start);
}

/// The name of a kernel for the report: its symbol, demangled where the
/// host compiler can.
inline std::string kernelSymbolName(const void *kernel) {
  const char *symbol = nullptr;
  if (cudaFuncGetName(&symbol, kernel) != cudaSuccess || !symbol) {
    cudaGetLastError();
    return "kernel";
  }
  std::string name = symbol;
#if defined(__GNUC__) || defined(__clang__)
  int status = -1;
  char *demangled = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  if (status == 0 && demangled)
    name = qualifiedName(demangled);
  std::free(demangled);
#endif
  return name;
}

/// What the launches of one kernel balanced across tiles keep: the choice
/// of their mode, and their persistent grids, so that one lookup serves a
/// launch's bookkeeping.
struct TileKernel {
  /// Owned by the site registry (its report line: `"choice": "tiles of
  /// <kernel>"`).
  VariantState *choice = nullptr;
  /// cachedPersistentBlocks() by device, threads per block and dynamic
  /// shared memory: the few a kernel's launches use, next to its choice,
  /// in front of that function's complete cache (a kernel launched with
  /// many shared memory sizes still queries the occupancy once each).
  RecentAnswers<std::tuple<int, int, size_t>, unsigned> grids;
};

/// Every kernel's record, made so far.
inline std::map<const void *, TileKernel> &tileKernels() {
  static auto *kernels = new std::map<const void *, TileKernel>();
  return *kernels;
}

/// The record of one kernel's launches, made on its first launch. The
/// caller holds the registry's mutex.
inline TileKernel &tileKernel(SiteRegistry &registry, const void *kernel) {
  std::map<const void *, TileKernel> &kernels = tileKernels();
  auto it = kernels.find(kernel);
  if (it != kernels.end())
    return it->second;
  // Owned by the registry before the record holds it, so that nothing
  // that throws leaves a record without its choice or pointing to none.
  auto owned = std::make_unique<VariantState>(
      "tiles of " + kernelSymbolName(kernel),
      std::vector<std::string>{"dynamic-tiles", "one-tile-per-block"},
      registry.environment());
  VariantState *choice = owned.get();
  registry.choices.push_back(std::move(owned));
  TileKernel &k = kernels[kernel];
  k.choice = choice;
  return k;
}

} // namespace detail

/// The report's lines (JSON, as DISTWAR_REPORT writes them) of every
/// kernel's tile mode choice so far, one per kernel and device.
inline std::vector<std::string> tileModeReport() {
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<std::string> lines;
  for (const auto &entry : detail::tileKernels())
    for (std::string &line : entry.second.choice->reportLines())
      lines.push_back(std::move(line));
  return lines;
}

/// A launch of a kernel rewritten by distwar-rewrite --balance=tiles: its
/// configuration and the arguments it takes first. It lives in the block
/// around the launch statement: when it is timed for the choice of mode,
/// its end records the launch's end, so it must not outlive that block.
struct TileLaunch {
  dim3 grid;           ///< persistent: the blocks the device holds at once
  dim3 block;          ///< as launched
  size_t shared;       ///< as launched
  cudaStream_t stream; ///< as launched
  TileQueue *queue;    ///< the stream's pool; null: one tile per block
  unsigned tiles;      ///< the blocks of the original grid
  dim3 original;       ///< the original grid, which gridDim reads see
  /// Where the launch's cost kernel writes each tile's cost, for a pool
  /// drawn heaviest first; null: the tiles are drawn in launch order.
  unsigned *costs = nullptr;
  /// The pool's order, which the cost kernel writes (orderTilesByCost).
  unsigned *order = nullptr;

  /// Without a pool, each block runs its own tile.
  TileMode mode() const {
    return queue ? TileMode::kDynamic : TileMode::kOnePerBlock;
  }
  /// Whether the launch draws tiles from a pool: which instance of a kernel
  /// whose mode is a template parameter (TileCursor<Dynamic>) it launches.
  bool dynamic() const { return mode() == TileMode::kDynamic; }
  /// Whether the tiles' costs are to be computed and ordered before the
  /// launch, so that the heaviest are drawn first: by a kernel of one block
  /// (costGrid() x costBlock(), declared __launch_bounds__(kTileCostThreads)
  /// so that it fits) on the launch's stream, whose threads write `costs`
  /// (tile t, t + costBlock().x, ...) and then all call
  /// orderTilesByCost(costs, tiles, order).
  bool ordered() const { return costs != nullptr; }
  dim3 costBlock() const { return dim3(kTileCostThreads); }
  dim3 costGrid() const { return dim3(1); }

  TileLaunch() = default;
  TileLaunch(const TileLaunch &) = delete;
  TileLaunch &operator=(const TileLaunch &) = delete;
  TileLaunch(TileLaunch &&other) noexcept
      : grid(other.grid), block(other.block), shared(other.shared),
        stream(other.stream), queue(other.queue), tiles(other.tiles),
        original(other.original), costs(other.costs), order(other.order),
        choice(other.choice), ticket(other.ticket) {
    other.choice = nullptr;
  }
  TileLaunch &operator=(TileLaunch &&) = delete;
  ~TileLaunch() {
    if (!choice)
      return;
    detail::SiteRegistry &registry = detail::SiteRegistry::instance();
    std::lock_guard<std::mutex> lock(registry.mutex);
    choice->end(ticket);
  }

  /// Times this launch for \p state's choice (\p t from its begin()).
  void timeFor(detail::VariantState &state, const VariantTicket &t) {
    assert(!choice && "a launch is timed once");
    choice = &state;
    ticket = t;
  }

private:
  detail::VariantState *choice = nullptr;
  VariantTicket ticket;
};

/// The type of argument \p I of a kernel balanced by distwar-rewrite
/// --balance=tiles (counting its own parameters, after the pool's three),
/// from a pointer to it: a launch whose arguments serve two kernels (the
/// tiles' costs, then the tiles) evaluates each once, into a variable of
/// this type, as the parameter would be initialised.
template <typename Pointer, unsigned I> struct TileKernelParamOf;
template <typename... P, unsigned I>
struct TileKernelParamOf<void (*)(TileQueue *, unsigned, dim3, P...), I> {
  using type = typename std::tuple_element<I, std::tuple<P...>>::type;
};
template <typename... P, unsigned I>
struct TileKernelParamOf<void (*)(TileQueue *, unsigned, dim3, P...) noexcept,
                         I> {
  using type = typename std::tuple_element<I, std::tuple<P...>>::type;
};
template <typename Pointer, unsigned I>
using TileKernelParam = typename TileKernelParamOf<
    typename std::remove_cv<Pointer>::type, I>::type;

/// The launch of \p kernel that the original launch `<<<grid, block,
/// shared, stream>>>` becomes. An empty grid stays empty, so that the
/// launch fails as the original did. With \p ordered, a launch with dynamic
/// tiles draws them heaviest first: the caller computes their costs and
/// orders them (TileLaunch::ordered()). The mode is each kernel's choice:
/// timed on the program's own launches (DISTWAR_AUTOTUNE,
/// DISTWAR_AUTOTUNE_INTERVAL), dynamic tiles without tuning; its search
/// waits while a wrapped launch searches for thresholds, so that neither
/// times the other's candidates.
template <typename Kernel>
TileLaunch tileLaunch(Kernel kernel, dim3 grid, dim3 block, size_t shared,
                      cudaStream_t stream, bool ordered = false) {
  TileLaunch l;
  l.block = block;
  l.shared = shared;
  l.stream = stream;
  l.tiles = tileCount(grid);
  l.original = grid;
  l.grid = grid;
  l.queue = nullptr;
  if (l.tiles == 0)
    return l;
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  if (!registry.environmentError().empty())
    throw std::invalid_argument(registry.environmentError());
  int device = 0;
  detail::throwIfFailed(cudaGetDevice(&device), "distwar::tileLaunch",
                        "cudaGetDevice");
  const int threads = static_cast<int>(block.x * block.y * block.z);
  const std::tuple<int, int, size_t> shape(device, threads, shared);
  detail::TileKernel *k = nullptr;
  unsigned blocks = 0;
  {
    // Declared after `l`, released before it: a timed launch's end takes
    // this lock (also when something here throws).
    std::lock_guard<std::mutex> lock(registry.mutex);
    k = &detail::tileKernel(registry, reinterpret_cast<const void *>(kernel));
    const VariantTicket t = k->choice->begin(
        stream, [&registry] { return !registry.launchSearching(); });
    if (t.pair >= 0)
      l.timeFor(*k->choice, t);
    if (static_cast<TileMode>(t.variant) == TileMode::kOnePerBlock)
      return l;
    if (const unsigned *known = k->grids.find(shape))
      blocks = *known;
  }
  if (!blocks) {
    blocks = cachedPersistentBlocks(kernel, threads, shared, ~0u);
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (!k->grids.find(shape))
      k->grids.remember(shape, blocks);
  }
  l.grid = dim3(std::min(blocks, l.tiles));
  if (!ordered) {
    l.queue = streamTileQueue(stream);
    return l;
  }
  TileOrderOwner &pool = streamTileOrder(stream, l.tiles);
  l.queue = pool.queue();
  l.costs = pool.tileCosts();
  l.order = pool.tileOrder();
  return l;
}

} // namespace distwar

#endif // DISTWAR_TILES_CUH
