//===- LaunchOverhead.cu - What a wrapped launch costs on the host --------===//
//
// The launches distwar-rewrite wraps for tuning (docs/GENERATED_CODE.md,
// section 9) against the same launches unwrapped, with a kernel that does
// nearly nothing, on the legacy default stream (PyTorch's unless a program
// sets another). Each mode runs in its own process, since the runtime reads
// DISTWAR_* once per process:
//
//   settled    no DISTWAR_*: measured once the tuner has settled (its
//              re-checks, every 2000 launches and then less often, included)
//   exploring  no DISTWAR_*: the first launches of fresh sets of sites
//              (warm-up and search), without the first launch of each (it
//              creates events and pinned memory, once per program)
//   report     DISTWAR_REPORT=FILE, settled
//   fixed      DISTWAR_THRESHOLD=12 (a fixed-threshold run)
//   off        DISTWAR_AUTOTUNE=0
//
// Per mode, the host time of one launch statement (begin, launch, end),
// unwrapped and wrapped, in alternating blocks with the stream drained
// between blocks (outside the timing): median, mean and 99th percentile.
// Then the stream's time per launch of a kernel that spins for 20 us,
// launched back to back (so the GPU, not the host, sets the pace): what the
// wrapped launch adds on the GPU (timing events, threshold copies). Last, the
// CUDA calls a wrapped launch may make, each timed alone.
//
// Usage: distwar_launch_overhead [--launches N] [--json FILE]
//        distwar_launch_overhead --mode MODE [--launches N] [--json FILE]
// The first runs every mode as a child and prints one table; the second runs
// one mode in this process's environment. Prints "SKIPPED: no CUDA device"
// and exits 0 without a GPU.
//
//===----------------------------------------------------------------------===//

#include <distwar/runtime.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <unistd.h>

// Site 0 is read by the kernels and tuned by the settled launches; each of the
// others gets a fresh tuning state for `exploring`.
DISTWAR_SITES(distwar_sites_LaunchOverhead_cu, "tiny#0", "tiny#1", "tiny#2",
              "tiny#3", "tiny#4", "tiny#5", "tiny#6", "tiny#7", "tiny#8",
              "tiny#9", "tiny#10", "tiny#11", "tiny#12", "tiny#13", "tiny#14",
              "tiny#15", "tiny#16");

namespace {

constexpr int kFreshStates = 16;
constexpr int kExploringLaunches = 40;
constexpr int kBlock = 64;
constexpr long long kSpinNs = 20000;
constexpr int kSpinLaunches = 500;
constexpr int kSpinBatches = 4;

__global__ void tiny(int *out) {
  if (threadIdx.x == 0)
    out[0] += DISTWAR_SITE_THRESHOLD(distwar_sites_LaunchOverhead_cu, 0);
}

__device__ unsigned long long globalNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin(int *out, long long ns) {
  const unsigned long long start = globalNs();
  while (globalNs() - start < static_cast<unsigned long long>(ns))
    ;
  if (threadIdx.x == 0)
    out[1] += DISTWAR_SITE_THRESHOLD(distwar_sites_LaunchOverhead_cu, 0);
}

void require(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    std::printf("FATAL: %s: %s\n", what, cudaGetErrorString(err));
    std::exit(2);
  }
}

// The launch statements as distwar-rewrite writes them (one static tuner per
// statement; both statements read site 0, so they share its tuning).
void tinyPlain(int *out) { tiny<<<1, 32>>>(out); }

void tinyWrapped(int *out) {
  static ::distwar::LaunchTuner distwar_tuner0(
      "tiny", {{&distwar_sites_LaunchOverhead_cu, "tiny#0"}});
  ::distwar::LaunchTicket distwar_ticket0 = distwar_tuner0.begin(0);
  tiny<<<1, 32>>>(out);
  distwar_tuner0.end(distwar_ticket0);
}

void spinPlain(int *out) { spin<<<1, 32>>>(out, kSpinNs); }

void spinWrapped(int *out) {
  static ::distwar::LaunchTuner distwar_tuner1(
      "spin", {{&distwar_sites_LaunchOverhead_cu, "tiny#0"}});
  ::distwar::LaunchTicket distwar_ticket1 = distwar_tuner1.begin(0);
  spin<<<1, 32>>>(out, kSpinNs);
  distwar_tuner1.end(distwar_ticket1);
}

double nowNs() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Host ns of each of `count` calls of `launch`.
template <typename Launch>
void timeLaunches(std::vector<double> &into, int count, Launch launch) {
  for (int i = 0; i < count; ++i) {
    const double start = nowNs();
    launch();
    into.push_back(nowNs() - start);
  }
  require(cudaDeviceSynchronize(), "launches");
}

struct Stats {
  double median = 0, mean = 0, p99 = 0;
  size_t count = 0;
};

Stats stats(std::vector<double> v) {
  Stats s;
  s.count = v.size();
  if (v.empty())
    return s;
  std::sort(v.begin(), v.end());
  s.median = v[v.size() / 2];
  s.p99 = v[std::min(v.size() - 1, v.size() * 99 / 100)];
  double sum = 0;
  for (double x : v)
    sum += x;
  s.mean = sum / v.size();
  return s;
}

/// The report line of `site` now, and one field of it.
std::string reportLine(const std::string &site) {
  const std::string path = "/tmp/distwar-overhead-" +
                           std::to_string(static_cast<long>(getpid())) +
                           ".jsonl";
  std::string found;
  if (distwar_write_report(path.c_str()) != 0)
    return found;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.find("\"site\": \"" + site + "\"") != std::string::npos)
      found = line;
  std::remove(path.c_str());
  return found;
}

std::string field(const std::string &line, const std::string &name) {
  const std::string key = "\"" + name + "\": ";
  size_t at = line.find(key);
  if (at == std::string::npos)
    return "";
  at += key.size();
  std::string v = line.substr(at, line.find_first_of(",}", at) - at);
  if (!v.empty() && v.front() == '"')
    v = v.substr(1, v.size() - 2);
  return v;
}

/// Stream us per launch of the spinning kernel, unwrapped and wrapped.
void spinTimes(int *out, double &plainUs, double &wrappedUs) {
  cudaEvent_t start, stop;
  require(cudaEventCreate(&start), "event");
  require(cudaEventCreate(&stop), "event");
  std::vector<double> plain, wrapped;
  for (int b = 0; b < 2 * kSpinBatches; ++b) {
    const bool isWrapped = b % 2 == 1;
    require(cudaDeviceSynchronize(), "spin");
    require(cudaEventRecord(start, 0), "record");
    for (int i = 0; i < kSpinLaunches; ++i)
      isWrapped ? spinWrapped(out) : spinPlain(out);
    require(cudaEventRecord(stop, 0), "record");
    require(cudaEventSynchronize(stop), "spin");
    float ms = 0;
    require(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    (isWrapped ? wrapped : plain).push_back(1000.0 * ms / kSpinLaunches);
  }
  plainUs = stats(plain).median;
  wrappedUs = stats(wrapped).median;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

/// Launches until the tuner of site 0 settles; false if it does not.
bool settle(int *out) {
  for (int i = 0; i < 400; ++i) {
    std::vector<double> ignored;
    timeLaunches(ignored, kBlock, [&] { tinyWrapped(out); });
    if (field(reportLine("tiny#0"), "how") == "tuned")
      return true;
  }
  return false;
}

/// The CUDA calls (and the lock) a wrapped launch may make, each alone: ns.
void components() {
  constexpr int kCalls = 20000;
  auto perCall = [&](auto body) {
    const double start = nowNs();
    for (int i = 0; i < kCalls; ++i)
      body();
    return (nowNs() - start) / kCalls;
  };
  cudaEvent_t done, pair[2];
  require(cudaEventCreate(&done), "event");
  require(cudaEventCreate(&pair[0]), "event");
  require(cudaEventCreate(&pair[1]), "event");
  require(cudaEventRecord(done, 0), "record");
  require(cudaDeviceSynchronize(), "sync");
  std::mutex mutex;
  int device = 0;
  int value = 12;
  cudaStreamCaptureStatus status;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  struct Row {
    const char *what;
    double ns;
  };
  std::vector<Row> rows;
  rows.push_back({"std::mutex lock + unlock", perCall([&] {
                    mutex.lock();
                    mutex.unlock();
                  })});
  rows.push_back(
      {"cudaPeekAtLastError", perCall([&] { (void)cudaPeekAtLastError(); })});
  rows.push_back(
      {"cudaGetDevice", perCall([&] { (void)cudaGetDevice(&device); })});
  rows.push_back({"cudaStreamIsCapturing (legacy stream)",
                  perCall([&] { (void)cudaStreamIsCapturing(0, &status); })});
  rows.push_back({"cudaThreadExchangeStreamCaptureMode x2", perCall([&] {
                    cudaThreadExchangeStreamCaptureMode(&mode);
                    cudaThreadExchangeStreamCaptureMode(&mode);
                  })});
  rows.push_back(
      {"cudaEventQuery (done)", perCall([&] { (void)cudaEventQuery(done); })});
  float ms = 0;
  rows.push_back({"cudaEventElapsedTime", perCall([&] {
                    (void)cudaEventElapsedTime(&ms, done, done);
                  })});
  rows.push_back({"cudaEventRecord x2 (a timed launch)", perCall([&] {
                    (void)cudaEventRecord(pair[0], 0);
                    (void)cudaEventRecord(pair[1], 0);
                  })});
  require(cudaDeviceSynchronize(), "sync");
  rows.push_back(
      {"cudaMemcpyToSymbolAsync 4 B pageable (a threshold write)", perCall([&] {
         (void)cudaMemcpyToSymbolAsync(distwar_sites_LaunchOverhead_cu, &value,
                                       sizeof(int), sizeof(int),
                                       cudaMemcpyHostToDevice, 0);
       })});
  require(cudaDeviceSynchronize(), "sync");
  std::printf("\n| call (alone) | host ns |\n|---|---|\n");
  for (const Row &r : rows)
    std::printf("| %s | %.0f |\n", r.what, r.ns);
  cudaEventDestroy(done);
  cudaEventDestroy(pair[0]);
  cudaEventDestroy(pair[1]);
}

int runMode(const std::string &mode, int launches, const char *json) {
  int *out = nullptr;
  require(cudaMalloc(&out, 2 * sizeof(int)), "malloc");
  require(cudaMemset(out, 0, 2 * sizeof(int)), "memset");
  // Module loading and the tuner's events and pinned memory, not measured.
  tinyPlain(out);
  tinyWrapped(out);
  require(cudaDeviceSynchronize(), "warm-up");

  std::vector<double> plain, wrapped;
  std::string note;
  double spinPlainUs = 0, spinWrappedUs = 0;
  if (mode == "exploring") {
    std::vector<std::unique_ptr<distwar::LaunchTuner>> fresh;
    std::vector<double> first;
    for (int s = 1; s <= kFreshStates; ++s) {
      const std::string site = "tiny#" + std::to_string(s);
      fresh.push_back(std::make_unique<distwar::LaunchTuner>(
          "tiny", std::initializer_list<distwar::SiteRef>{
                      {&distwar_sites_LaunchOverhead_cu, site.c_str()}}));
      distwar::LaunchTuner &tuner = *fresh.back();
      auto launch = [&] {
        distwar::LaunchTicket ticket = tuner.begin(0);
        tiny<<<1, 32>>>(out);
        tuner.end(ticket);
      };
      timeLaunches(first, 1, launch);
      timeLaunches(plain, kExploringLaunches - 1, [&] { tinyPlain(out); });
      timeLaunches(wrapped, kExploringLaunches - 1, launch);
    }
    int searching = 0;
    for (int s = 1; s <= kFreshStates; ++s)
      searching +=
          field(reportLine("tiny#" + std::to_string(s)), "how") == "searching";
    note = "launches 2.." + std::to_string(kExploringLaunches) + " of " +
           std::to_string(kFreshStates) + " fresh states, " +
           std::to_string(searching) + " still searching after them; " +
           "first launch (events, pinned memory) median " +
           std::to_string(static_cast<long>(stats(first).median)) + " ns";
  } else {
    if ((mode == "settled" || mode == "report") && !settle(out)) {
      std::printf("FAIL: %s: the tuner did not settle\n", mode.c_str());
      return 1;
    }
    for (int done = 0; done < launches; done += kBlock) {
      timeLaunches(plain, kBlock, [&] { tinyPlain(out); });
      timeLaunches(wrapped, kBlock, [&] { tinyWrapped(out); });
    }
    spinTimes(out, spinPlainUs, spinWrappedUs);
    const std::string line = reportLine("tiny#0");
    note = "tiny#0: " + field(line, "how") + ", threshold " +
           field(line, "threshold") + ", " + field(line, "timed_calls") +
           " of " + field(line, "calls") + " launches timed, " +
           field(line, "searches") + " searches";
  }
  const Stats p = stats(plain), w = stats(wrapped);
  std::printf(
      "| %s | %zu | %.0f | %.0f | %+.0f | %.0f | %.0f | %+.0f | %.0f | ",
      mode.c_str(), w.count, p.median, w.median, w.median - p.median, p.mean,
      w.mean, w.mean - p.mean, w.p99);
  if (spinPlainUs > 0)
    std::printf("%.2f | %.2f | %s |\n", spinPlainUs, spinWrappedUs,
                note.c_str());
  else
    std::printf("- | - | %s |\n", note.c_str());
  if (json) {
    if (FILE *f = std::fopen(json, "a")) {
      std::fprintf(f,
                   "{\"mode\": \"%s\", \"launches\": %zu, "
                   "\"plain_ns\": {\"median\": %.1f, \"mean\": %.1f, \"p99\": "
                   "%.1f}, \"wrapped_ns\": {\"median\": %.1f, \"mean\": %.1f, "
                   "\"p99\": %.1f}, \"spin_us\": {\"plain\": %.3f, "
                   "\"wrapped\": %.3f}, \"note\": %s}\n",
                   mode.c_str(), w.count, p.median, p.mean, p.p99, w.median,
                   w.mean, w.p99, spinPlainUs, spinWrappedUs,
                   distwar::detail::jsonString(note).c_str());
      std::fclose(f);
    }
  }
  std::fflush(stdout);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  std::string mode;
  int launches = 20000;
  const char *json = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--mode") && i + 1 < argc)
      mode = argv[++i];
    else if (!std::strcmp(argv[i], "--launches") && i + 1 < argc)
      launches = std::max(kBlock, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else {
      std::printf("usage: %s [--mode MODE] [--launches N] [--json FILE]\n",
                  argv[0]);
      return 2;
    }
  }
  if (!mode.empty())
    return runMode(mode, launches, json);

  char self[4096] = {0};
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  const std::string exe = length > 0 ? std::string(self, length) : argv[0];
  if (json)
    std::remove(json);
  cudaDeviceProp prop;
  require(cudaGetDeviceProperties(&prop, 0), "device");
  std::printf("%s; host ns per launch statement (tiny kernel, legacy stream); "
              "GPU us per launch of a %lld us kernel back to back\n\n",
              prop.name, kSpinNs / 1000);
  std::printf("| mode | launches | plain median | wrapped median | added | "
              "plain mean | wrapped mean | added | wrapped p99 | GPU plain | "
              "GPU wrapped | |\n|---|---|---|---|---|---|---|---|---|---|---|"
              "---|\n");
  std::fflush(stdout);
  const std::string report = "/tmp/distwar-overhead-report-" +
                             std::to_string(static_cast<long>(getpid())) +
                             ".jsonl";
  const struct {
    const char *mode;
    std::string env;
  } runs[] = {
      {"settled", ""},
      {"exploring", ""},
      {"report", "DISTWAR_REPORT=" + report},
      {"fixed", "DISTWAR_THRESHOLD=12"},
      {"off", "DISTWAR_AUTOTUNE=0"},
  };
  int failed = 0;
  for (const auto &run : runs) {
    std::string command =
        "env -u DISTWAR_THRESHOLD -u DISTWAR_AUTOTUNE -u "
        "DISTWAR_AUTOTUNE_INTERVAL -u DISTWAR_AUTOTUNE_SEARCH -u "
        "DISTWAR_REPORT " +
        run.env + " '" + exe + "' --mode " + run.mode + " --launches " +
        std::to_string(launches);
    if (json)
      command += std::string(" --json '") + json + "'";
    std::fflush(stdout);
    if (std::system(command.c_str()) != 0) {
      std::printf("FAIL: mode %s\n", run.mode);
      ++failed;
    }
  }
  std::remove(report.c_str());
  components();
  return failed ? 1 : 0;
}
