//===- BenchDriver.h - What the kernel benchmark drivers share --*- C++ -*-===//
//
// The parts of a benchmark driver of the reference kernels (distwar_bench,
// distwar_balance_bench) that do not depend on what it times: the options
// every driver takes, the skip without a device, the device and date at the
// head of the output, the results file, CUDA-event timing, medians and JSON
// strings. One copy, so that the drivers' command lines and result files
// stay alike.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dwk_common.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

namespace dwk_bench {

// The options every driver takes:
//   --out FILE (the JSON results), --reps N, --cases a,b,..., --seed S.
// A driver sets its defaults (its reps and cases) before parseOptions().
struct Options {
  std::string outPath;
  std::vector<std::string> cases;
  int reps = 1;
  uint64_t seed = 1;
};

namespace detail {

// Takes argv[i] when it is one of Options' flags and its value follows,
// leaving i on the value (--cases into `caseList`, split once all are read);
// false for anything else: a driver's own flag, or a flag without its value,
// which is reported.
inline bool parseOption(int argc, char **argv, int &i, Options &options,
                        std::string &caseList) {
  if (i + 1 >= argc)
    return false;
  const std::string a = argv[i];
  if (a == "--out")
    options.outPath = argv[++i];
  else if (a == "--reps")
    options.reps = std::max(1, std::atoi(argv[++i]));
  else if (a == "--cases")
    caseList = argv[++i];
  else if (a == "--seed")
    options.seed = std::strtoull(argv[++i], nullptr, 0);
  else
    return false;
  return true;
}

} // namespace detail

// Reads the command line into `options`. An argument that is not one of
// Options' flags goes to `own(arg)`, the driver's own flags, which returns
// whether it took it. False after reporting, as `program`, an argument that
// neither takes: the driver then exits 2.
template <typename OwnFlags>
bool parseOptions(int argc, char **argv, const char *program, Options &options,
                  OwnFlags &&own) {
  std::string caseList;
  for (int i = 1; i < argc; ++i) {
    if (detail::parseOption(argc, argv, i, options, caseList) || own(argv[i]))
      continue;
    std::fprintf(stderr, "%s: unknown argument '%s'\n", program, argv[i]);
    return false;
  }
  // The last --cases counts; an empty one, as none, leaves the defaults.
  if (!caseList.empty()) {
    options.cases.clear();
    std::stringstream ss(caseList);
    for (std::string c; std::getline(ss, c, ',');)
      options.cases.push_back(c);
  }
  return true;
}

// False, with the line the test runner reads as a skip, where the machine
// has no CUDA device: a driver then exits 0.
inline bool haveDevice() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return false;
  }
  return true;
}

// What the results were measured on, and when.
struct RunInfo {
  cudaDeviceProp prop; // of device 0, the one the drivers time on
  std::string date;    // UTC
};

inline RunInfo runInfo() {
  RunInfo info;
  DWK_CHECK(cudaGetDeviceProperties(&info.prop, 0));
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  info.date = date;
  return info;
}

// Writes `text` to `path`, a driver's --out, unless it is empty. False,
// with the reason on stderr after `program`'s name, where it cannot.
inline bool writeResults(const std::string &path, const std::string &text,
                         const char *program) {
  if (path.empty())
    return true;
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", program, path.c_str());
    return false;
  }
  std::fputs(text.c_str(), f);
  std::fclose(f);
  std::printf("wrote %s\n", path.c_str());
  return true;
}

// Times one call of a function on the default stream with CUDA events.
struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    DWK_CHECK(cudaEventCreate(&start));
    DWK_CHECK(cudaEventCreate(&stop));
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  Timer(const Timer &) = delete;
  Timer &operator=(const Timer &) = delete;
  template <typename F> float time(F &&f) {
    DWK_CHECK(cudaEventRecord(start));
    f();
    DWK_CHECK(cudaEventRecord(stop));
    DWK_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    DWK_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }
};

// The upper median (of an even count, the larger middle value); 0 for none.
inline double median(std::vector<float> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// `s` as a JSON string literal.
inline std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20) {
      // Control characters (in an error message, say) must be escaped.
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
      out += buf;
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace dwk_bench
