//===- Worker.h - Runs kernels of the selection and checks every output ---===//
//
// A worker runs positions [from, to) of the selection, one kernel at a time,
// and reports on stdout, one flushed line each, so that the driver knows
// which kernel was running when a worker hung or died:
//
//   BEGIN <index>
//   FAIL <index> <name> variant=.. block=.. grid=.. npix=.. threshold=..
//        optional=0|1 buffer=<name>[<i>] got=.. expected=.. tol=..
//        mismatches=<count>
//   UNSTABLE <index> <name> buffer=..   (two plain runs differ: a tester bug)
//   HANG <index> <name> <run>           (then the process exits 3)
//   CRASH <index> <name> <run>: <error> (then the process exits 4)
//   DONE <index> pass|fail <shapes where the plain kernel added nothing>
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_DIFFTEST_WORKER_H
#define DISTWAR_TEST_GPU_DIFFTEST_WORKER_H

#include "Options.h"

namespace difftest {

/// Runs and checks positions [from, to) of selectKernels(o); returns the
/// number of kernels with a failure.
int runWorker(const Options &o, int from, int to);

/// Where the tiles variant is selected, one line saying which tile mode its
/// launches take (DiffTestMain.cpp: DISTWAR_AUTOTUNE).
void printTileMode(const Options &o);

} // namespace difftest

#endif // DISTWAR_TEST_GPU_DIFFTEST_WORKER_H
