//===- Driver.h - Worker processes under a watchdog, and the summary ------===//
//
// The selection is cut into batches; each batch runs in its own worker
// process (this executable with --worker), a few at a time. A worker that
// hangs (its own watchdog exits 3, or it prints nothing for too long and is
// killed) or dies takes only its current kernel with it: that kernel is
// counted hung or failed and the rest of its batch runs in a new worker.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_DIFFTEST_DRIVER_H
#define DISTWAR_TEST_GPU_DIFFTEST_DRIVER_H

#include "Options.h"

namespace difftest {

/// Runs every selected kernel in worker processes; prints the failures, the
/// coverage table and "N passed, M failed, H hung"; returns the exit status.
int runDriver(const Options &o, const char *self);

/// Runs every selected kernel in this process (for compute-sanitizer).
int runInProcess(const Options &o);

} // namespace difftest

#endif // DISTWAR_TEST_GPU_DIFFTEST_DRIVER_H
