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

#include <cstdlib>

// The tiles variant's launches (--balance=tiles) each take dynamic tiles or
// one tile per block, as the runtime's tuner chooses by timing them; with
// DISTWAR_AUTOTUNE=0 every launch takes dynamic tiles, the mode the rewrite
// is about. The runtime reads the environment once, when the first site
// table registers, during static initialisation: this runs before (a
// constructor with a priority precedes the default ones), in the driver,
// the workers it spawns with its environment, and --in-process. A value
// given is kept: DISTWAR_AUTOTUNE=1 checks the tuner's choice, whose first
// two launches of each kernel take dynamic tiles, then one tile per block.
// Tuning is off for the other variants' sites anyway: the worker sets every
// threshold itself.
__attribute__((constructor(101))) static void dynamicTilesByDefault() {
  setenv("DISTWAR_AUTOTUNE", "0", /*overwrite=*/0);
}

int main(int argc, char **argv) {
  const difftest::Options o = difftest::parseOptions(argc, argv);
  if (o.worker)
    return difftest::runWorker(o, o.from, o.to), 0;
  gpucheck::skipWithoutDevice();
  if (o.inProcess)
    return difftest::runInProcess(o);
  return difftest::runDriver(o, argv[0]);
}
