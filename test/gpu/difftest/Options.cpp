//===- Options.cpp - Command line of the differential tester --------------===//

#include "Options.h"

#include "Tables.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>

namespace difftest {

static const char kUsage[] =
    "usage: distwar_difftest [options]\n"
    "  --seed S          input seed (default: random, printed)\n"
    "  --only I,J,...    only these kernel indices (as gen_difftest.py "
    "numbers them)\n"
    "  --variants A,B    only these rewritten variants (auto, serial, "
    "butterfly, tiles)\n"
    "  --small           fixed cases and every 32nd kernel, one shape, "
    "threshold 0\n"
    "  --in-process      no worker processes (compute-sanitizer); a hang or a\n"
    "                    fault then ends the run\n"
    "  --jobs N          worker processes at a time (default 1: each holds\n"
    "                    a CUDA context, and contexts time-slice the GPU)\n"
    "  --batch N         kernels per worker process (default 48)\n"
    "  --hang-seconds S  a launch that takes longer is a hang (default 20)\n"
    "  --time-limit S    stop after S seconds; the rest is reported not run\n"
    "  --coverage FILE   coverage table to print (default: the build's)\n";

[[noreturn]] static void usage(const char *why) {
  std::fprintf(stderr, "distwar_difftest: %s\n%s", why, kUsage);
  std::exit(2);
}

static std::vector<std::string> splitCommas(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

static long toNumber(const char *option, const std::string &s) {
  char *end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < 0)
    usage((std::string(option) + ": not a number: " + s).c_str());
  return v;
}

Options parseOptions(int argc, char **argv) {
  Options o;
  o.coverage = kCoverageFile;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage((arg + " needs a value").c_str());
      return argv[++i];
    };
    if (arg == "--seed") {
      o.seed = static_cast<unsigned>(toNumber("--seed", value()));
      o.seedGiven = true;
    } else if (arg == "--only") {
      for (const std::string &s : splitCommas(value()))
        o.only.push_back(static_cast<int>(toNumber("--only", s)));
    } else if (arg == "--variants") {
      o.variants = splitCommas(value());
    } else if (arg == "--small") {
      o.small = true;
    } else if (arg == "--in-process") {
      o.inProcess = true;
    } else if (arg == "--jobs") {
      o.jobs = static_cast<int>(toNumber("--jobs", value()));
    } else if (arg == "--batch") {
      o.batch = static_cast<int>(toNumber("--batch", value()));
    } else if (arg == "--hang-seconds") {
      o.hangSeconds = static_cast<double>(toNumber("--hang-seconds", value()));
    } else if (arg == "--time-limit") {
      o.timeLimit = static_cast<double>(toNumber("--time-limit", value()));
    } else if (arg == "--coverage") {
      o.coverage = value();
    } else if (arg == "--worker") {
      o.worker = true;
      o.from = static_cast<int>(toNumber("--worker", value()));
      o.to = static_cast<int>(toNumber("--worker", value()));
    } else if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      std::exit(0);
    } else {
      usage(("unknown option " + arg).c_str());
    }
  }
  if (o.jobs < 1 || o.batch < 1 || o.hangSeconds < 1)
    usage("--jobs, --batch and --hang-seconds must be positive");
  if (!o.seedGiven)
    o.seed = std::random_device{}();
  return o;
}

std::vector<std::string> workerArguments(const Options &o, int from, int to) {
  std::vector<std::string> args = {
      "--seed", std::to_string(o.seed), "--hang-seconds",
      std::to_string(static_cast<int>(o.hangSeconds))};
  if (o.small)
    args.push_back("--small");
  if (!o.only.empty()) {
    std::string list;
    for (int i : o.only)
      list += (list.empty() ? "" : ",") + std::to_string(i);
    args.insert(args.end(), {"--only", list});
  }
  if (!o.variants.empty()) {
    std::string list;
    for (const std::string &v : o.variants)
      list += (list.empty() ? "" : ",") + v;
    args.insert(args.end(), {"--variants", list});
  }
  args.insert(args.end(),
              {"--worker", std::to_string(from), std::to_string(to)});
  return args;
}

std::vector<int> selectKernels(const Options &o) {
  std::vector<int> out;
  for (int k = 0; k < difftest_meta::kKernelCount; ++k) {
    const KernelSpec &spec = difftest_meta::kKernels[k];
    if (!o.only.empty()) {
      bool listed = false;
      for (int i : o.only)
        listed = listed || i == spec.index;
      if (!listed)
        continue;
    } else if (o.small && std::strstr(spec.features, "fixed") == nullptr &&
               spec.index % 32 != 0) {
      continue;
    }
    out.push_back(k);
  }
  return out;
}

std::vector<int> selectVariants(const Options &o) {
  std::vector<int> out;
  for (int v = kFirstRewrittenVariant; v < kVariantCount; ++v) {
    bool wanted = o.variants.empty();
    for (const std::string &name : o.variants)
      wanted = wanted || name == kVariants[v].name;
    if (wanted)
      out.push_back(v);
  }
  for (const std::string &name : o.variants) {
    bool built = false;
    for (int v = kFirstRewrittenVariant; v < kVariantCount; ++v)
      built = built || name == kVariants[v].name;
    if (!built)
      usage(("--variants: " + name + " was not built").c_str());
  }
  return out;
}

} // namespace difftest
