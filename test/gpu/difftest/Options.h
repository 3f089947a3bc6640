//===- Options.h - Command line of the differential tester ----------------===//
#ifndef DISTWAR_TEST_GPU_DIFFTEST_OPTIONS_H
#define DISTWAR_TEST_GPU_DIFFTEST_OPTIONS_H

#include <string>
#include <vector>

namespace difftest {

struct Options {
  unsigned seed = 0; // inputs of kernel i come from (seed, i)
  bool seedGiven = false;
  bool small = false;    // a subset, one shape, one threshold (sanitizers)
  std::vector<int> only; // kernel indices; empty: every kernel
  std::vector<std::string> variants; // rewritten variants; empty: all built
  double hangSeconds = 20;           // one launch longer than this is a hang
  double timeLimit = 0;              // seconds for the whole run (0: none)
  // One worker at a time is the fastest: worker processes each hold a CUDA
  // context, and contexts time-slice the GPU, so 15 workers ran the same
  // kernels about 15 times slower than one (bench/RESULTS.md).
  int jobs = 1;                      // worker processes at a time
  int batch = 48;                    // kernels per worker process
  bool inProcess = false; // no worker processes (for compute-sanitizer)
  std::string coverage;   // coverage table to print (see coverage.py)
  // Worker processes only: positions [from, to) of the selection.
  bool worker = false;
  int from = 0, to = 0;
};

/// Parses argv; prints usage and exits on a bad option.
Options parseOptions(int argc, char **argv);

/// The arguments that make a worker see the same selection and inputs.
std::vector<std::string> workerArguments(const Options &o, int from, int to);

/// Indices into difftest_meta::kKernels of the kernels to run.
std::vector<int> selectKernels(const Options &o);

/// Indices into difftest::kVariants of the rewritten variants to run.
std::vector<int> selectVariants(const Options &o);

} // namespace difftest

#endif // DISTWAR_TEST_GPU_DIFFTEST_OPTIONS_H
