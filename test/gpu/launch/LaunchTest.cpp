//===- LaunchTest.cpp - Tuning on the program's own launches, on a GPU ----===//
//
// Accumulate.cu as distwar-rewrite rewrote it: its launch tunes the site
// `accumulate#0` while the program runs. Every launch here is checked
// exactly (integer sums, fresh keys and values) while the tuner explores,
// settles, is captured into a CUDA graph, runs inside a KernelTuner and is
// overridden by the program. The environment is read once per process, so
// the cases that set DISTWAR_* run this binary again as a child:
//   distwar_launch_gputest [--child environment|off|capture|bad]
// Prints "N passed, N failed" (children too) or "SKIPPED: no CUDA device".
//
//===----------------------------------------------------------------------===//

#include "Accumulate.h"
#include "GpuCheck.h"

#include <distwar/autotune.h>
#include <distwar/sites.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

constexpr int kKeys = 4096;
constexpr int kElements = 1 << 18;
const char *const kSite = "accumulate#0";

/// Device inputs and outputs, and the exact sums of each scene on the host.
struct Workload {
  struct Scene {
    int *keys = nullptr;
    unsigned *values = nullptr;
    std::vector<unsigned long long> sums, squares;
  };
  std::vector<Scene> scenes;
  unsigned long long *sums = nullptr, *squares = nullptr;
  cudaStream_t stream = nullptr;

  /// Scenes whose lanes share keys in runs of 1, 4, 8 or 32 (so thresholds
  /// matter differently), fresh random values.
  Workload() {
    std::mt19937 rng(std::random_device{}());
    for (int run : {1, 4, 8, 32}) {
      Scene s;
      std::vector<int> keys(kElements);
      std::vector<unsigned> values(kElements);
      s.sums.assign(kKeys, 0);
      s.squares.assign(kKeys, 0);
      for (int i = 0; i < kElements; ++i) {
        keys[i] = static_cast<int>((i / run + rng() % 3) % kKeys);
        values[i] = rng() % 100000;
        s.sums[keys[i]] += values[i];
        s.squares[keys[i]] +=
            static_cast<unsigned long long>(values[i]) * values[i];
      }
      gpucheck::require(cudaMalloc(&s.keys, kElements * sizeof(int)), "malloc");
      gpucheck::require(cudaMalloc(&s.values, kElements * sizeof(unsigned)),
                        "malloc");
      gpucheck::require(cudaMemcpy(s.keys, keys.data(), kElements * sizeof(int),
                                   cudaMemcpyHostToDevice),
                        "copy");
      gpucheck::require(cudaMemcpy(s.values, values.data(),
                                   kElements * sizeof(unsigned),
                                   cudaMemcpyHostToDevice),
                        "copy");
      scenes.push_back(std::move(s));
    }
    gpucheck::require(cudaMalloc(&sums, kKeys * sizeof(*sums)), "malloc");
    gpucheck::require(cudaMalloc(&squares, kKeys * sizeof(*squares)), "malloc");
    gpucheck::require(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                      "stream");
  }

  AccumulateArgs args(int scene) const {
    return AccumulateArgs{sums, squares, scenes[scene].keys,
                          scenes[scene].values, kElements};
  }

  void zero() const {
    gpucheck::require(cudaMemsetAsync(sums, 0, kKeys * sizeof(*sums), stream),
                      "memset");
    gpucheck::require(
        cudaMemsetAsync(squares, 0, kKeys * sizeof(*squares), stream),
        "memset");
  }

  /// Whether the outputs hold `times` launches of `scene`.
  bool exact(int scene, int times = 1) const {
    std::vector<unsigned long long> s(kKeys), q(kKeys);
    gpucheck::require(cudaStreamSynchronize(stream), "sync");
    gpucheck::require(cudaMemcpy(s.data(), sums, kKeys * sizeof(*sums),
                                 cudaMemcpyDeviceToHost),
                      "copy back");
    gpucheck::require(cudaMemcpy(q.data(), squares, kKeys * sizeof(*squares),
                                 cudaMemcpyDeviceToHost),
                      "copy back");
    for (int k = 0; k < kKeys; ++k)
      if (s[k] != times * scenes[scene].sums[k] ||
          q[k] != times * scenes[scene].squares[k])
        return false;
    return true;
  }

  /// `count` launches, each checked; returns the number that were exact.
  int launches(int count) const {
    int good = 0;
    for (int i = 0; i < count; ++i) {
      const int scene = i % static_cast<int>(scenes.size());
      zero();
      launchAccumulate(args(scene), stream);
      gpucheck::require(cudaGetLastError(), "launch");
      good += exact(scene) ? 1 : 0;
    }
    return good;
  }
};

/// The report line of `accumulate#0`, and one of its fields.
std::string reportLine() {
  const std::string path = "distwar-launch-test-" +
                           std::to_string(static_cast<long>(std::rand())) +
                           ".jsonl";
  if (distwar_write_report(path.c_str()) != 0)
    return "";
  std::ifstream in(path);
  std::string line, found;
  while (std::getline(in, line))
    if (line.find(std::string("\"site\": \"") + kSite + "\"") !=
        std::string::npos)
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
  size_t end = line.find_first_of(",}", at);
  std::string v = line.substr(at, end - at);
  if (!v.empty() && v.front() == '"')
    v = v.substr(1, v.size() - 2);
  return v;
}

long long number(const std::string &line, const std::string &name) {
  const std::string v = field(line, name);
  return v.empty() ? -1 : std::atoll(v.c_str());
}

std::string self;

int runChild(const std::string &name, const std::string &env) {
  const std::string command = env + " '" + self + "' --child " + name;
  std::printf("-- child %s: %s\n", name.c_str(), env.c_str());
  std::fflush(stdout);
  return std::system(command.c_str());
}

/// No environment: the tuner explores and settles on its own.
void testTunesOnItsOwn(gpucheck::Tally &tally, const Workload &w) {
  const int launches = 600;
  tally.check(w.launches(launches) == launches,
              "every launch exact while the tuner explores and settles");
  const std::string line = reportLine();
  std::printf("after %d launches: %s\n", launches, line.c_str());
  tally.check(field(line, "how") == "tuned", "settled within 600 launches");
  tally.check(number(line, "calls") == launches, "every launch counted");
  const long long t = number(line, "threshold");
  tally.check(t >= 1 && t <= 33 && distwar::siteThreshold(kSite) == t,
              "the device table holds the settled threshold");
}

/// Inside KernelTuner::run the wrapped launch leaves the thresholds alone.
void testInsideKernelTuner(gpucheck::Tally &tally, const Workload &w) {
  const long long timedBefore = number(reportLine(), "timed_calls");
  distwar::KernelTuner tuner({kSite});
  int good = 0;
  for (int i = 0; i < 20; ++i) {
    w.zero();
    tuner.run(w.stream,
              {{w.sums, kKeys * sizeof(*w.sums)},
               {w.squares, kKeys * sizeof(*w.squares)}},
              [&] { launchAccumulate(w.args(1), w.stream); });
    good += w.exact(1) ? 1 : 0;
  }
  tally.check(good == 20, "KernelTuner calls exact");
  const std::string line = reportLine();
  tally.check(field(line, "how") == "kernel-tuner" &&
                  distwar::siteThreshold(kSite) == tuner.stats().threshold,
              "the KernelTuner's threshold is in force: " + line);
  tally.check(number(line, "timed_calls") == timedBefore,
              "the wrapped launch timed nothing inside the KernelTuner");
  tally.check(w.launches(50) == 50 &&
                  distwar::siteThreshold(kSite) == tuner.stats().threshold,
              "later launches leave the KernelTuner's threshold");
}

/// setSiteThreshold wins over launch tuning.
void testProgramSetter(gpucheck::Tally &tally, const Workload &w) {
  distwar::setSiteThreshold(kSite, 5);
  tally.check(w.launches(100) == 100, "launches exact after the program set 5");
  tally.check(distwar::siteThreshold(kSite) == 5 &&
                  field(reportLine(), "how") == "program",
              "the program's threshold stays");
}

int child(const std::string &name) {
  gpucheck::Tally tally;
  Workload w;
  if (name == "environment") {
    // DISTWAR_THRESHOLD=accumulate#0=plain
    tally.check(w.launches(50) == 50, "launches exact at plain atomics");
    const std::string line = reportLine();
    tally.check(distwar::siteThreshold(kSite) == 33 &&
                    field(line, "how") == "environment" &&
                    number(line, "threshold") == 33,
                "DISTWAR_THRESHOLD reached the table: " + line);
  } else if (name == "off") {
    // DISTWAR_AUTOTUNE=0
    tally.check(w.launches(100) == 100, "launches exact without tuning");
    const std::string line = reportLine();
    tally.check(distwar::siteThreshold(kSite) == 0 &&
                    field(line, "how") == "default",
                "DISTWAR_AUTOTUNE=0 leaves the table: " + line);
    tally.check(number(line, "timed_calls") >= 2,
                "one launch in 32 timed for the report: " + line);
  } else if (name == "capture") {
    // DISTWAR_AUTOTUNE_INTERVAL=50: re-checks come often.
    tally.check(w.launches(400) == 400, "launches exact before the capture");
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    gpucheck::require(
        cudaStreamBeginCapture(w.stream, cudaStreamCaptureModeGlobal),
        "begin capture");
    launchAccumulate(w.args(2), w.stream);
    gpucheck::require(cudaStreamEndCapture(w.stream, &graph), "end capture");
    gpucheck::require(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
    w.zero();
    for (int i = 0; i < 3; ++i)
      gpucheck::require(cudaGraphLaunch(exec, w.stream), "graph launch");
    tally.check(w.exact(2, 3), "three replays of the captured launch exact");
    // A re-check under way when the capture came stops there; none starts.
    tally.check(w.launches(10) == 10, "launches exact after the capture");
    const std::string before = reportLine();
    const int threshold = distwar::siteThreshold(kSite);
    tally.check(w.launches(300) == 300, "more launches exact");
    const std::string after = reportLine();
    tally.check(number(after, "searches") == number(before, "searches") &&
                    distwar::siteThreshold(kSite) == threshold,
                "no search after the capture: " + before + " / " + after);
    w.zero();
    gpucheck::require(cudaGraphLaunch(exec, w.stream), "graph launch");
    tally.check(w.exact(2), "a replay after more launches exact");
  } else if (name == "bad") {
    // DISTWAR_THRESHOLD=13x
    bool threw = false;
    try {
      launchAccumulate(w.args(0), w.stream);
    } catch (const std::invalid_argument &e) {
      threw = std::strstr(e.what(), "DISTWAR_THRESHOLD=13x") != nullptr;
    }
    tally.check(threw,
                "a bad DISTWAR_THRESHOLD stops the launch with its name");
  } else {
    std::printf("unknown child '%s'\n", name.c_str());
    return 2;
  }
  return tally.finish();
}

} // namespace

int main(int argc, char **argv) {
  gpucheck::skipWithoutDevice();
  if (argc == 3 && std::strcmp(argv[1], "--child") == 0)
    return child(argv[2]);
  std::srand(12345);
  char path[4096] = {0};
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  self = length > 0 ? std::string(path, length) : argv[0];
  gpucheck::Tally tally;
  {
    Workload w;
    testTunesOnItsOwn(tally, w);
    testInsideKernelTuner(tally, w);
    testProgramSetter(tally, w);
  }
  const char *clear = "env -u DISTWAR_THRESHOLD -u DISTWAR_AUTOTUNE "
                      "-u DISTWAR_AUTOTUNE_INTERVAL -u DISTWAR_REPORT";
  tally.check(
      runChild("environment", std::string(clear) +
                                  " DISTWAR_THRESHOLD=accumulate#0=plain") == 0,
      "child: DISTWAR_THRESHOLD per site");
  tally.check(runChild("off", std::string(clear) + " DISTWAR_AUTOTUNE=0") == 0,
              "child: DISTWAR_AUTOTUNE=0");
  tally.check(runChild("capture", std::string(clear) +
                                      " DISTWAR_AUTOTUNE_INTERVAL=50") == 0,
              "child: CUDA graph capture");
  tally.check(runChild("bad", std::string(clear) + " DISTWAR_THRESHOLD=13x") ==
                  0,
              "child: a bad DISTWAR_THRESHOLD");
  return tally.finish();
}
