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
// report says what they chose. A launch that dynamic tiles cannot serve as
// the original would be served runs one tile per block, whatever the
// choice: one the original cannot launch (it fails the same way), one
// whose dynamic instance does not fit, and one on a stream being captured
// into a CUDA graph whose pool is not there yet (tileLaunch says more).
// The host parts (TileQueue, the grid, TileQueueOwner) compile without nvcc.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TILES_CUH
#define DISTWAR_TILES_CUH

#include "distwar/launch.h"
#include "distwar/recent_answers.h"
#include "distwar/variant_launch.h"

#include <cuda_runtime.h>
#if defined(__CUDACC__)
#include <cuda/atomic>
#endif

#include <algorithm>
#include <atomic>
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

namespace detail {

/// What an occupancy query found: the blocks of a kernel that the current
/// device holds at once (0: none fits), or the CUDA call that failed.
struct ResidentBlocks {
  unsigned blocks = 0;
  cudaError_t error = cudaSuccess;
  const char *call = nullptr;
};

/// The blocks of `kernel` that the current device holds at once: its SMs
/// times the blocks one SM holds, which is 0 where one block does not fit
/// (its shared memory over the per-block limit, say). In relaxed capture
/// mode, so that a capture under way is never invalidated by the query.
template <typename Kernel>
ResidentBlocks residentBlocks(Kernel kernel, int threadsPerBlock,
                              size_t dynamicSharedBytes) {
  ResidentBlocks r;
  const auto failed = [&r](cudaError_t err, const char *call) {
    r.error = err;
    r.call = call;
    return err != cudaSuccess;
  };
  RelaxedCapture relaxed;
  int device = 0, sms = 0, perSM = 0;
  if (failed(cudaGetDevice(&device), "cudaGetDevice") ||
      failed(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                    device),
             "cudaDeviceGetAttribute") ||
      failed(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                 &perSM, kernel, threadsPerBlock, dynamicSharedBytes),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
    return r;
  r.blocks = static_cast<unsigned>(std::max(0, sms * perSM));
  return r;
}

/// residentBlocks(), queried once per kernel, block size, shared memory
/// and device (a failed query again on the next call): the query costs
/// microseconds of host time, a launch a few.
template <typename Kernel>
ResidentBlocks cachedResidentBlocks(Kernel kernel, int threadsPerBlock,
                                    size_t dynamicSharedBytes) {
  using Key = std::tuple<int, const void *, int, size_t>;
  static std::mutex mutex;
  static std::map<Key, unsigned> resident;
  ResidentBlocks r;
  int device = 0;
  r.error = cudaGetDevice(&device);
  if (r.error != cudaSuccess) {
    r.call = "cudaGetDevice";
    return r;
  }
  const Key key(device, reinterpret_cast<const void *>(kernel),
                threadsPerBlock, dynamicSharedBytes);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = resident.find(key);
  if (it != resident.end()) {
    r.blocks = it->second;
    return r;
  }
  r = residentBlocks(kernel, threadsPerBlock, dynamicSharedBytes);
  if (r.error == cudaSuccess)
    resident.emplace(key, r.blocks);
  return r;
}

} // namespace detail

/// The grid of a persistent launch: as many blocks of `kernel` as the
/// current device holds at once, no more than `tiles`, at least one (where
/// none fits, the launch of that one fails as the kernel's own would).
/// Throws what a CUDA call failed with: a block of no threads, say.
template <typename Kernel>
unsigned persistentBlocks(Kernel kernel, int threadsPerBlock,
                          size_t dynamicSharedBytes, unsigned tiles) {
  const detail::ResidentBlocks r =
      detail::residentBlocks(kernel, threadsPerBlock, dynamicSharedBytes);
  detail::throwIfFailed(r.error, "distwar::persistentBlocks", r.call);
  return std::max(1u, std::min(r.blocks, tiles));
}

/// persistentBlocks(), queried once per kernel, block size, shared memory
/// and device: the occupancy query costs microseconds of host time, a launch
/// a few.
template <typename Kernel>
unsigned cachedPersistentBlocks(Kernel kernel, int threadsPerBlock,
                                size_t dynamicSharedBytes, unsigned tiles) {
  const detail::ResidentBlocks r = detail::cachedResidentBlocks(
      kernel, threadsPerBlock, dynamicSharedBytes);
  detail::throwIfFailed(r.error, "distwar::cachedPersistentBlocks", r.call);
  return std::max(1u, std::min(r.blocks, tiles));
}

/// Owns one zeroed TileQueue in device memory (on the device current at
/// construction).
class TileQueueOwner {
public:
  /// Zeroed on the legacy stream, with a wait.
  TileQueueOwner() {
    check(cudaMalloc(&queue, sizeof(TileQueue)), "cudaMalloc");
    check(cudaMemset(queue, 0, sizeof(TileQueue)), "cudaMemset");
  }
  /// Zeroed in \p stream's order, where its launches find it, with no
  /// wait and nothing on the legacy stream (which must not take work while
  /// another stream is being captured).
  explicit TileQueueOwner(cudaStream_t stream) {
    check(cudaMalloc(&queue, sizeof(TileQueue)), "cudaMalloc");
    reset(stream);
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

namespace detail {

/// Whether \p stream may take the work of making a pool now (allocations,
/// a wait for the stream): no capture into a CUDA graph is under way on it,
/// where they would fail and end the capture. A query that fails (the
/// legacy stream while another stream is being captured) says no, its
/// error cleared: the launch meets it again.
inline bool outsideCapture(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return status == cudaStreamCaptureStatusNone;
}

} // namespace detail

/// A pool whose tiles are drawn in an order made for each launch, and the
/// room for it: the launch's cost of each tile (which distwar-rewrite's
/// cost kernels write) and the order (orderTilesByCost).
class TileOrderOwner {
public:
  /// The pool zeroed on the legacy stream, with a wait; no room yet.
  TileOrderOwner() : pool(std::make_unique<TileQueueOwner>()) {}
  /// The pool zeroed in \p stream's order; no room yet.
  explicit TileOrderOwner(cudaStream_t stream)
      : pool(std::make_unique<TileQueueOwner>(stream)) {}
  ~TileOrderOwner() {
    cudaFree(costs);
    cudaFree(order);
    for (const Room &r : kept) {
      cudaFree(r.costs);
      cudaFree(r.order);
    }
  }
  TileOrderOwner(const TileOrderOwner &) = delete;
  TileOrderOwner &operator=(const TileOrderOwner &) = delete;

  /// Room for \p tiles tiles, used on \p stream. False, and nothing
  /// changed, where it must grow while \p stream is being captured into a
  /// CUDA graph (growing allocates and waits for the stream, which would
  /// end the capture). A larger room comes with a pool of its own: the old
  /// pool and room are kept, never freed, for a graph that captured
  /// launches on them may still replay them (and the old pool's order is
  /// the old room's). The room at least doubles, so what is kept is smaller
  /// than what is in use.
  bool reserve(unsigned tiles, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mutex);
    if (tiles <= capacity)
      return true;
    if (!detail::outsideCapture(stream))
      return false;
    // Another thread's capture in global mode must not end either.
    detail::RelaxedCapture relaxed;
    const unsigned doubled = capacity <= UINT_MAX / 2 ? 2 * capacity : UINT_MAX;
    grow(std::max({tiles, doubled, 1024u}), stream);
    return true;
  }
  TileQueue *queue() const { return pool->get(); }
  unsigned *tileCosts() const { return costs; }
  unsigned *tileOrder() const { return order; }
  /// Empties the pool on `stream` (TileQueueOwner::reset), its room and
  /// order kept.
  void reset(cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mutex);
    pool->reset(stream);
    if (order)
      publishOrder(stream);
  }

private:
  /// A pool's room, which the pool's order points into.
  struct Room {
    std::unique_ptr<TileQueueOwner> pool;
    unsigned *costs, *order;
  };

  static void check(cudaError_t err, const char *what) {
    detail::throwIfFailed(err, "distwar::TileOrderOwner", what);
  }
  /// Room for \p room tiles; a pool that has had room (launches may have
  /// used it) is kept with it, and a new one takes their place.
  void grow(unsigned room, cudaStream_t stream) {
    if (capacity > 0) {
      kept.push_back(Room{std::move(pool), costs, order});
      costs = order = nullptr;
      capacity = 0;
      pool = std::make_unique<TileQueueOwner>(stream);
    }
    check(cudaMalloc(&costs, sizeof(unsigned) * room), "cudaMalloc");
    check(cudaMalloc(&order, sizeof(unsigned) * room), "cudaMalloc");
    publishOrder(stream);
    capacity = room;
  }
  /// Points the pool's order at ours (reset() zeroes it), in stream order,
  /// and waits for the copy (its source is on this stack).
  void publishOrder(cudaStream_t stream) {
    const unsigned *drawOrder = order;
    check(cudaMemcpyAsync(&pool->get()->order, &drawOrder, sizeof drawOrder,
                          cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  std::unique_ptr<TileQueueOwner> pool;
  std::mutex mutex;
  unsigned *costs = nullptr, *order = nullptr;
  unsigned capacity = 0;
  /// The pools and rooms replaced by larger ones.
  std::vector<Room> kept;
};

namespace detail {

/// The current device; throws where it cannot be read.
inline int currentDevice(const char *where) {
  int device = 0;
  throwIfFailed(cudaGetDevice(&device), where, "cudaGetDevice");
  return device;
}

/// A number of the calling host thread's own, never another thread's (a
/// thread that ends may leave its std::thread::id to the next one).
inline unsigned long long hostThreadSerial() {
  static std::atomic<unsigned long long> next{1};
  thread_local const unsigned long long serial = next.fetch_add(1);
  return serial;
}

/// `0`, cudaStreamLegacy or cudaStreamPerThread: a stream that its handle
/// names for a host thread's whole life.
inline bool isDefaultStream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy ||
         stream == cudaStreamPerThread;
}

/// The \p Owner of launches on \p stream on \p device, made on the first
/// launch there and kept for the program's life; null where there is none
/// and none can be made now: \p stream is being captured into a CUDA graph
/// (making one allocates and waits), or its handle is one the runtime
/// rejects.
///
/// The default streams are one per host thread here: with per-thread
/// default streams two threads' launches on `0` may run at once. With
/// \p PerThread every stream's owner is one per host thread too: a launch
/// that issues several kernels on its owner's buffers (the costs, the
/// order, the kernel) would have them interleaved with another thread's on
/// a shared stream. Any other stream is known by its handle: a stream
/// destroyed while its launches still run, and a new one created with the
/// same handle, would share one, and their launches could run at once:
/// destroy streams after their work. (The stream's id would tell them
/// apart, but cudaStreamGetId ends a capture under way, in any capture
/// mode.) Each stream, and each host thread on a default stream, makes a
/// pool that is never freed.
template <typename Owner, bool PerThread = false>
Owner *streamOwned(cudaStream_t stream, int device) {
  using Stream = std::pair<int, cudaStream_t>;
  static std::mutex mutex;
  // Never freed: a destructor at exit may run after the CUDA context is gone
  // (and so the pointers a thread remembers stay good).
  static auto *owners =
      new std::map<std::pair<Stream, unsigned long long>, Owner *>();
  thread_local RecentAnswers<Stream, Owner *> recent;
  const bool defaultStream = isDefaultStream(stream);
  const Stream known(device, stream);
  if (Owner *const *owner = recent.find(known))
    return *owner;
  const bool perThread = PerThread || defaultStream;
  const std::pair<Stream, unsigned long long> key(
      known, perThread ? hostThreadSerial() : 0ull);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = owners->find(key);
  if (it == owners->end()) {
    if (!outsideCapture(stream))
      return nullptr;
    // Another thread's capture in global mode must not end either.
    RelaxedCapture relaxed;
    it = owners->emplace(key, new Owner(stream)).first;
  }
  recent.remember(known, it->second);
  return it->second;
}

} // namespace detail

/// The pool of launches on \p stream (detail::streamOwned says when it is
/// made and shared); its tiles are drawn in launch order. Throws where it
/// has none and cannot make one: on a stream being captured, say.
inline TileQueue *streamTileQueue(cudaStream_t stream) {
  const char *const where = "distwar::streamTileQueue";
  TileQueueOwner *owner = detail::streamOwned<TileQueueOwner>(
      stream, detail::currentDevice(where));
  if (!owner)
    throw std::runtime_error(std::string(where) +
                             ": no pool, and none can be made on a stream "
                             "being captured");
  return owner->get();
}

/// The pool of launches on \p stream from this host thread whose tiles are
/// drawn in an order made for each launch, with room for \p tiles tiles.
/// Throws where it has none or too little room and cannot grow: on a
/// stream being captured, say.
inline TileOrderOwner &streamTileOrder(cudaStream_t stream, unsigned tiles) {
  const char *const where = "distwar::streamTileOrder";
  TileOrderOwner *owner =
      detail::streamOwned<TileOrderOwner, /*PerThread=*/true>(
          stream, detail::currentDevice(where));
  if (!owner || !owner->reserve(tiles, stream))
    throw std::runtime_error(std::string(where) +
                             ": no pool with room, and none can be made on "
                             "a stream being captured");
  return *owner;
}

/// The tiles of \p grid: its blocks, which must number fewer than 2^32.
inline unsigned tileCount(dim3 grid) {
  const unsigned long long n = 1ull * grid.x * grid.y * grid.z;
  if (n > UINT_MAX)
    throw std::runtime_error("distwar::tileCount: more than 2^32 - 1 blocks");
  return static_cast<unsigned>(n);
}

namespace detail {

/// Whether every CUDA device (compute capability 3.0 on) launches \p grid
/// blocks of \p block threads: 1 to 2^31 - 1 blocks across, 1 to 65535
/// down and deep; blocks of 1 to 1024 threads, at most 1024 x 1024 x 64.
/// Fixed limits, so no CUDA call asks.
inline bool withinLaunchLimits(dim3 grid, dim3 block) {
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  return grid.x >= 1 && grid.x <= static_cast<unsigned>(INT_MAX) &&
         grid.y >= 1 && grid.y <= 65535 && grid.z >= 1 && grid.z <= 65535 &&
         block.x <= 1024 && block.y <= 1024 && block.z <= 64 && threads >= 1 &&
         threads <= 1024;
}

} // namespace detail

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
  /// Dynamic: the blocks the device holds at once; else the original grid.
  dim3 grid;
  dim3 block;          ///< as launched
  size_t shared;       ///< as launched
  cudaStream_t stream; ///< as launched
  TileQueue *queue;    ///< the stream's pool; null: one tile per block
  /// The blocks of the original grid; 0 where it launches none (an empty
  /// grid, or a configuration no device launches).
  unsigned tiles;
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

namespace detail {

/// Asks \p k's choice of mode for launch \p l, which it times where the
/// choice asks; whether it takes dynamic tiles. The caller holds the
/// registry's mutex. Its search waits while a wrapped launch searches for
/// thresholds, so that neither times the other's candidates.
inline bool chooseDynamic(TileKernel &k, SiteRegistry &registry,
                          TileLaunch &l) {
  const VariantTicket t = k.choice->begin(
      l.stream, [&registry] { return !registry.launchSearching(); });
  if (t.pair >= 0)
    l.timeFor(*k.choice, t);
  return static_cast<TileMode>(t.variant) == TileMode::kDynamic;
}

/// Gives launch \p l on \p device its stream's pool (\p ordered: one drawn
/// heaviest first, with room for its tiles); false, and \p l unchanged,
/// where the stream has none that serves and cannot make one now (it is
/// being captured). A launch on a stream being captured is never timed
/// (VariantState::begin), so one left without a pool is never timed as a
/// dynamic launch; nor, but for a handle the runtime rejects, is any other.
inline bool takeStreamPool(TileLaunch &l, int device, bool ordered) {
  assert(!l.queue && !l.costs && "a launch takes one pool, once");
  if (!ordered) {
    TileQueueOwner *pool = streamOwned<TileQueueOwner>(l.stream, device);
    if (pool)
      l.queue = pool->get();
    return pool != nullptr;
  }
  TileOrderOwner *pool =
      streamOwned<TileOrderOwner, /*PerThread=*/true>(l.stream, device);
  if (!pool || !pool->reserve(l.tiles, l.stream))
    return false;
  l.queue = pool->queue();
  l.costs = pool->tileCosts();
  l.order = pool->tileOrder();
  return true;
}

} // namespace detail

/// The launch of \p kernel that the original launch `<<<grid, block,
/// shared, stream>>>` becomes. With \p ordered, a launch with dynamic
/// tiles draws them heaviest first: the caller computes their costs and
/// orders them (TileLaunch::ordered()). The mode is each kernel's choice:
/// timed on the program's own launches (DISTWAR_AUTOTUNE,
/// DISTWAR_AUTOTUNE_INTERVAL), dynamic tiles without tuning; its search
/// waits while a wrapped launch searches for thresholds, so that neither
/// times the other's candidates.
///
/// One tile per block is the original launch, and so what every launch
/// takes that dynamic tiles cannot serve as the original would be served:
/// a configuration the original cannot launch (an empty grid, a grid or
/// block over every device's limits, a block of no threads), so that the
/// launch fails as the original did, with its error and before any block
/// runs; a kernel whose dynamic instance does not fit on the device where
/// the original may (the loop's hand-over slots are static shared memory of
/// the dynamic instance alone), so that the launch runs, or fails as the
/// original would; and a stream being captured into a CUDA graph that has
/// no pool yet, or none with room for an ordered launch's tiles (making
/// one allocates and waits, which would end the capture), so that the
/// graph records the original launch (an ordered one without its cost
/// kernel: TileLaunch::ordered() is false). Where the pool exists, a
/// captured launch draws from it, and a replay of the graph must then not
/// run at the same time as another launch on that pool: replay it on the
/// stream it was captured on. None of these asks the choice of mode, but
/// for the capture, which VariantState::begin leaves untimed.
template <typename Kernel>
TileLaunch tileLaunch(Kernel kernel, dim3 grid, dim3 block, size_t shared,
                      cudaStream_t stream, bool ordered = false) {
  TileLaunch l;
  l.block = block;
  l.shared = shared;
  l.stream = stream;
  l.tiles = detail::withinLaunchLimits(grid, block) ? tileCount(grid) : 0u;
  l.original = grid;
  l.grid = grid;
  l.queue = nullptr;
  if (l.tiles == 0)
    return l;
  detail::SiteRegistry &registry = detail::SiteRegistry::instance();
  if (!registry.environmentError().empty())
    throw std::invalid_argument(registry.environmentError());
  const int device = detail::currentDevice("distwar::tileLaunch");
  const int threads = static_cast<int>(block.x * block.y * block.z);
  const std::tuple<int, int, size_t> shape(device, threads, shared);
  detail::TileKernel *k = nullptr;
  unsigned blocks = 0;
  {
    // Declared after `l`, released before it: a timed launch's end takes
    // this lock (also when something here throws).
    std::lock_guard<std::mutex> lock(registry.mutex);
    k = &detail::tileKernel(registry, reinterpret_cast<const void *>(kernel));
    if (const unsigned *known = k->grids.find(shape)) {
      if (*known == 0 || !detail::chooseDynamic(*k, registry, l))
        return l;
      blocks = *known;
    }
  }
  if (!blocks) {
    // The shape's first launch: the query outside the registry's lock. One
    // that fails (the launch meets the same error) is asked again next time.
    const detail::ResidentBlocks r =
        detail::cachedResidentBlocks(kernel, threads, shared);
    if (r.error != cudaSuccess) {
      cudaGetLastError();
      return l;
    }
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (!k->grids.find(shape))
      k->grids.remember(shape, r.blocks);
    if (r.blocks == 0 || !detail::chooseDynamic(*k, registry, l))
      return l;
    blocks = r.blocks;
  }
  if (detail::takeStreamPool(l, device, ordered))
    l.grid = dim3(std::min(blocks, l.tiles));
  return l;
}

} // namespace distwar

#endif // DISTWAR_TILES_CUH
