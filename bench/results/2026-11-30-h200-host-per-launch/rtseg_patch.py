"""Times the parts of tileLaunch and LaunchTuner::begin (measurement only:
patches the device's working copy of the runtime headers)."""
import re
seg_h = r'''
#ifndef DW_SEG_H
#define DW_SEG_H
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <map>
#include <string>
namespace distwar_seg {
struct Seg { std::vector<double> v; };
struct Segs {
  std::map<std::string, Seg> m;
  ~Segs() { for (auto &e : m) { auto &v = e.second.v; if (v.size() < 100) continue; std::vector<double> w(v.begin() + 50, v.end()); std::sort(w.begin(), w.end());
    std::fprintf(stderr, "RTSEG %p %s calls %zu median %.3f p10 %.3f p90 %.3f us\n", (void *)this, e.first.c_str(), v.size(), w[w.size() / 2], w[w.size() / 10], w[w.size() * 9 / 10]); } }
};
inline Segs &segs() { static Segs s; return s; }
inline std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
inline void add(const char *name, std::chrono::steady_clock::time_point &t) { auto n = now(); segs().m[name].v.push_back(std::chrono::duration<double, std::micro>(n - t).count()); t = now(); }
}
#endif
'''
p = 'runtime/include/distwar/tiles.cuh'
s = open(p).read()
s = s.replace('#include "distwar/recent_answers.h"\n', '#include "distwar/recent_answers.h"\n' + seg_h, 1)
def rep(a, b):
    global s
    assert s.count(a) == 1, a[:50]
    s = s.replace(a, b)
rep('''  TileLaunch l;
  l.block = block;''', '''  auto dw_t = distwar_seg::now();
  TileLaunch l;
  l.block = block;''')
rep('''  VariantTicket t;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    detail::VariantState &choice = detail::tileModeChoice(
        registry, reinterpret_cast<const void *>(kernel));
    t = choice.begin(stream, !registry.launchSearching());
    if (t.pair >= 0)
      l.timeFor(choice, t);
  }
  if (static_cast<TileMode>(t.variant) == TileMode::kOnePerBlock)
    return l;
  l.grid = dim3(cachedPersistentBlocks(
      kernel, static_cast<int>(block.x * block.y * block.z), shared, l.tiles));''', '''  VariantTicket t;
  distwar_seg::add("tl.a registry", dw_t);
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    distwar_seg::add("tl.b lock", dw_t);
    detail::VariantState &choice = detail::tileModeChoice(
        registry, reinterpret_cast<const void *>(kernel));
    distwar_seg::add("tl.c choice lookup", dw_t);
    const bool searching = registry.launchSearching();
    distwar_seg::add("tl.d launchSearching", dw_t);
    t = choice.begin(stream, !searching);
    distwar_seg::add("tl.e begin", dw_t);
    if (t.pair >= 0)
      l.timeFor(choice, t);
  }
  distwar_seg::add("tl.f unlock", dw_t);
  if (static_cast<TileMode>(t.variant) == TileMode::kOnePerBlock)
    return l;
  l.grid = dim3(cachedPersistentBlocks(
      kernel, static_cast<int>(block.x * block.y * block.z), shared, l.tiles));
  distwar_seg::add("tl.g grid", dw_t);''')
rep('''  TileOrderOwner &pool = streamTileOrder(stream, l.tiles);
  l.queue = pool.queue();''', '''  TileOrderOwner &pool = streamTileOrder(stream, l.tiles);
  distwar_seg::add("tl.h order pool", dw_t);
  l.queue = pool.queue();''')
open(p, 'w').write(s)

p = 'runtime/include/distwar/variant_launch.h'
s = open(p).read()
s = s.replace('#include <cuda_runtime', seg_h + '#include <cuda_runtime', 1)
rep('''    VariantTicket t;
    t.stream = stream;
    int device = 0;
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    // The program's own pending error is left for it to see.
    if (cudaPeekAtLastError() != cudaSuccess)
      return t;
    if (cudaGetDevice(&device) != cudaSuccess) {
      cudaGetLastError();
      return t;
    }
    Device &d = deviceState(device);
    t.variant = d.choice.variant();''', '''    VariantTicket t;
    t.stream = stream;
    int device = 0;
    auto dw_t = distwar_seg::now();
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    // The program's own pending error is left for it to see.
    if (cudaPeekAtLastError() != cudaSuccess)
      return t;
    distwar_seg::add("vs.a peek", dw_t);
    if (cudaGetDevice(&device) != cudaSuccess) {
      cudaGetLastError();
      return t;
    }
    distwar_seg::add("vs.b getDevice", dw_t);
    Device &d = deviceState(device);
    t.variant = d.choice.variant();
    distwar_seg::add("vs.c deviceState", dw_t);''')
open(p, 'w').write(s)

p = 'runtime/include/distwar/launch.h'
s = open(p).read()
s = s.replace('#include <cuda_runtime_api.h>', seg_h + '#include <cuda_runtime_api.h>', 1)
rep('''    ++calls;
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    Device *d = usableDevice(stream, status, t);
    if (!d)
      return t;''', '''    ++calls;
    auto dw_t = distwar_seg::now();
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    Device *d = usableDevice(stream, status, t);
    distwar_seg::add("lt.a usableDevice", dw_t);
    if (!d)
      return t;''')
rep('''    const LaunchSchedule::Sites sites = currentSites(registry);
    if (status != cudaStreamCaptureStatusNone) {''', '''    const LaunchSchedule::Sites sites = currentSites(registry);
    distwar_seg::add("lt.b currentSites", dw_t);
    if (status != cudaStreamCaptureStatusNone) {''')
rep('''    beginScheduled(*d, stream, sites, passive, relax, t);
    return t;''', '''    beginScheduled(*d, stream, sites, passive, relax, t);
    distwar_seg::add("lt.c beginScheduled", dw_t);
    return t;''')
rep('''  Device *usableDevice(cudaStream_t stream, cudaStreamCaptureStatus &status,
                       LaunchTicket &t) {
    if (cudaPeekAtLastError() != cudaSuccess)
      return nullptr;''', '''  Device *usableDevice(cudaStream_t stream, cudaStreamCaptureStatus &status,
                       LaunchTicket &t) {
    auto dw_u = distwar_seg::now();
    if (cudaPeekAtLastError() != cudaSuccess)
      return nullptr;
    distwar_seg::add("lt.u1 peek", dw_u);''')
rep('''    t.device = device;
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    return &d;''', '''    t.device = device;
    distwar_seg::add("lt.u2 getDevice+state", dw_u);
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    distwar_seg::add("lt.u3 isCapturing", dw_u);
    return &d;''')
rep('''    detail::SiteRegistry &registry = detail::SiteRegistry::instance();
    if (!registry.environmentError().empty())
      throw std::invalid_argument(registry.environmentError());
    std::lock_guard<std::mutex> lock(registry.mutex);
    return state->begin(stream, registry);''', '''    auto dw_o = distwar_seg::now();
    detail::SiteRegistry &registry = detail::SiteRegistry::instance();
    if (!registry.environmentError().empty())
      throw std::invalid_argument(registry.environmentError());
    distwar_seg::add("lo.a registry", dw_o);
    std::lock_guard<std::mutex> lock(registry.mutex);
    distwar_seg::add("lo.b lock", dw_o);
    return state->begin(stream, registry);''')
open(p, 'w').write(s)
print("patched")
