//===- Tables.h - The generated kernels and the built variants ------------===//
//
// kKernels comes from the generator's meta.cpp; kVariants from the
// variant_tables.cpp that CMake writes for the variants it built: the plain
// build, the count build (DiffTestAbi.h), then the rewritten ones.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_DIFFTEST_TABLES_H
#define DISTWAR_TEST_GPU_DIFFTEST_TABLES_H

#include "DiffTestAbi.h"

namespace difftest_meta {
extern const difftest::KernelSpec kKernels[];
extern const int kKernelCount;
extern const unsigned kGeneratorSeed;
} // namespace difftest_meta

namespace difftest {

struct Variant {
  const char *name;
  const LaunchFn *launchByTu; // indexed by KernelSpec::tu
};

extern const Variant kVariants[];
extern const int kVariantCount;
/// The coverage table of this set (coverage.py), printed by the driver.
extern const char *const kCoverageFile;
constexpr int kPlainVariant = 0;
constexpr int kCountVariant = 1;
constexpr int kFirstRewrittenVariant = 2;

} // namespace difftest

#endif // DISTWAR_TEST_GPU_DIFFTEST_TABLES_H
