//===- DiffTestMain.cpp - The GPU differential tester of distwar-rewrite --===//
//
// Every generated kernel (gen_difftest.py) as written and as rewritten by
// each variant, on identical random inputs; every output buffer compared
// with the plain kernel's. See README.md.
//
//   distwar_difftest [--seed S] [--only I,J] [--small] [--in-process] ...
//
// Prints one line per mismatch (generator seed, kernel, variant, launch,
// buffer, index, values), the coverage table and "N passed, M failed,
// H hung"; exits non-zero on any failure or hang, and 0 with "SKIPPED: no
// CUDA device" where there is none.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Options.h"
#include "Worker.h"

#include "../runtime/GpuCheck.h"

int main(int argc, char **argv) {
  const difftest::Options o = difftest::parseOptions(argc, argv);
  if (o.worker)
    return difftest::runWorker(o, o.from, o.to), 0;
  gpucheck::skipWithoutDevice();
  if (o.inProcess)
    return difftest::runInProcess(o);
  return difftest::runDriver(o, argv[0]);
}
