// Reads a launcher's kernels from a capture of one call (kernel_resources.h).
#include "kernel_resources.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <memory>

namespace dwk_bench {

namespace {

// What the occupancy of a kernel is measured against.
struct Device {
  int warpSize = 0;
  int maxThreadsPerSM = 0;
};

} // namespace

// Keeps the first failure in `error` (later ones mostly follow from it);
// true on success.
static bool ok(cudaError_t err, const char *what, std::string &error) {
  if (err == cudaSuccess)
    return true;
  if (error.empty())
    error = std::string(what) + ": " + cudaGetErrorString(err);
  return false;
}

static bool readDevice(Device &d, std::string &error) {
  int device = 0;
  return ok(cudaGetDevice(&device), "cudaGetDevice", error) &&
         ok(cudaDeviceGetAttribute(&d.warpSize, cudaDevAttrWarpSize, device),
            "cudaDeviceGetAttribute", error) &&
         ok(cudaDeviceGetAttribute(&d.maxThreadsPerSM,
                                   cudaDevAttrMaxThreadsPerMultiProcessor,
                                   device),
            "cudaDeviceGetAttribute", error);
}

// The graph of one call of `launch` on `stream`; nullptr where any step
// fails. Relaxed mode: a launcher (the rewritten ones' LaunchTuner, say) may
// make calls that the stricter modes forbid during a capture (allocations,
// event queries, synchronous copies).
static cudaGraph_t capture(cudaStream_t stream,
                           const std::function<void(cudaStream_t)> &launch,
                           std::string &error) {
  if (!ok(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed),
          "cudaStreamBeginCapture", error))
    return nullptr;
  try {
    launch(stream);
  } catch (const std::exception &e) {
    error = std::string("the launcher threw: ") + e.what();
  }
  // The launchers leave a failed launch's error pending. Read it before
  // cudaStreamEndCapture, whose own failure would replace it.
  ok(cudaGetLastError(), "the launcher", error);
  cudaGraph_t graph = nullptr;
  const bool ended =
      ok(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture", error);
  if (ended && error.empty())
    return graph;
  // A graph whose capture saw an error may lack the failed launch.
  if (graph)
    ok(cudaGraphDestroy(graph), "cudaGraphDestroy", error);
  return nullptr;
}

// The graph's nodes in an order that keeps every edge (Kahn's algorithm;
// ties in the order of cudaGraphGetNodes, which is not documented): for a
// capture of one stream, the order of its calls.
static bool orderedNodes(cudaGraph_t graph, std::vector<cudaGraphNode_t> &order,
                         std::string &error) {
  size_t n = 0, m = 0;
  if (!ok(cudaGraphGetNodes(graph, nullptr, &n), "cudaGraphGetNodes", error) ||
      !ok(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &m),
          "cudaGraphGetEdges", error))
    return false;
  std::vector<cudaGraphNode_t> nodes(n), from(m), to(m);
  std::vector<cudaGraphEdgeData> data(m);
  if ((n && !ok(cudaGraphGetNodes(graph, nodes.data(), &n), "cudaGraphGetNodes",
                error)) ||
      (m &&
       !ok(cudaGraphGetEdges(graph, from.data(), to.data(), data.data(), &m),
           "cudaGraphGetEdges", error)))
    return false;
  auto indexOf = [&](cudaGraphNode_t node) {
    return size_t(std::find(nodes.begin(), nodes.end(), node) - nodes.begin());
  };
  // Per node, its predecessors not yet in `order`; -1 once it is.
  std::vector<int> waiting(n, 0);
  for (size_t e = 0; e < m; ++e)
    ++waiting[indexOf(to[e])];
  while (order.size() < n) {
    const size_t next =
        size_t(std::find(waiting.begin(), waiting.end(), 0) - waiting.begin());
    if (next == n) {
      error = "the graph's edges form a cycle";
      return false;
    }
    waiting[next] = -1;
    order.push_back(nodes[next]);
    for (size_t e = 0; e < m; ++e)
      if (from[e] == nodes[next])
        --waiting[indexOf(to[e])];
  }
  return true;
}

// The kernel's name, demangled where it can be; empty where the runtime
// has none (the name only labels the numbers, which do not need it).
static std::string kernelName(const void *func) {
  const char *mangled = nullptr;
  if (cudaFuncGetName(&mangled, func) != cudaSuccess || !mangled)
    return "";
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? demangled.get() : mangled;
}

// One kernel node. The node's `func` identifies the kernel to the runtime
// (the host stub, or a cudaKernel_t, which the calls below also accept).
static KernelResources queryKernel(cudaGraphNode_t node, const Device &d) {
  KernelResources k;
  cudaKernelNodeParams p = {};
  if (!ok(cudaGraphKernelNodeGetParams(node, &p),
          "cudaGraphKernelNodeGetParams", k.error))
    return k;
  k.threads = int(p.blockDim.x * p.blockDim.y * p.blockDim.z);
  k.dynamicSharedBytes = p.sharedMemBytes;
  k.name = kernelName(p.func);
  cudaFuncAttributes a = {};
  if (!ok(cudaFuncGetAttributes(&a, p.func), "cudaFuncGetAttributes",
          k.error) ||
      !ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
              &k.blocksPerSM, p.func, k.threads, p.sharedMemBytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor", k.error))
    return k;
  k.registers = a.numRegs;
  k.localBytes = a.localSizeBytes;
  k.sharedBytes = a.sharedSizeBytes;
  const int warpsPerBlock = (k.threads + d.warpSize - 1) / d.warpSize;
  const int maxWarps = d.maxThreadsPerSM / d.warpSize;
  k.occupancy = maxWarps ? double(k.blocksPerSM * warpsPerBlock) / maxWarps : 0;
  return k;
}

static void queryKernels(cudaGraph_t graph, const Device &d,
                         LaunchResources &r) {
  std::vector<cudaGraphNode_t> nodes;
  if (!orderedNodes(graph, nodes, r.error))
    return;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    if (!ok(cudaGraphNodeGetType(node, &type), "cudaGraphNodeGetType", r.error))
      return;
    if (type == cudaGraphNodeTypeKernel)
      r.kernels.push_back(queryKernel(node, d));
  }
}

static void query(const std::function<void(cudaStream_t)> &launch,
                  LaunchResources &r) {
  Device d;
  // An error left pending by earlier work would be taken for the launch's.
  if (!readDevice(d, r.error) ||
      !ok(cudaGetLastError(), "pending before the capture", r.error))
    return;
  cudaStream_t stream = nullptr;
  // Non-blocking: legacy-stream work during the capture would otherwise
  // synchronise with it, which invalidates a capture.
  if (!ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags", r.error))
    return;
  if (cudaGraph_t graph = capture(stream, launch, r.error)) {
    queryKernels(graph, d, r);
    ok(cudaGraphDestroy(graph), "cudaGraphDestroy", r.error);
  }
  ok(cudaStreamDestroy(stream), "cudaStreamDestroy", r.error);
  if (r.kernels.empty() && r.error.empty())
    r.error = "no kernel captured: the launcher launched none on its stream";
}

LaunchResources
queryLaunchResources(const std::function<void(cudaStream_t)> &launch) {
  LaunchResources r;
  query(launch, r);
  // The failures reported in `r` are also the runtime's last error; they
  // must not fail the program's next check.
  cudaGetLastError();
  return r;
}

} // namespace dwk_bench
