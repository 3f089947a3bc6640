//===- Compare.h - One output buffer of a variant against the plain run ---===//
//
// The tolerance of an atomically summed float element: every term is >= 0
// and so is the start value, so the element's value S is its sum of
// magnitudes, and any order of summing its n terms (atomics in any order, a
// warp's shuffle tree, then an atomic) is within gamma(n) * S of the exact
// sum, gamma(n) = n u / (1 - n u) (Higham, Accuracy and Stability of
// Numerical Algorithms, 4.2). Two such sums differ by at most 2 gamma(n) S:
// the floor, never failing a legitimate reordering. n comes from the count
// run (DiffTestAbi.h). Where the plain kernel's own runs differ by more
// (never, when the floor is sound), 4 times that spread is allowed. Every
// compile uses -fmad=false, so each term is computed identically in every
// variant. Integers and plain stores compare exactly (bit for bit).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_DIFFTEST_COMPARE_H
#define DISTWAR_TEST_GPU_DIFFTEST_COMPARE_H

#include "DiffTestAbi.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace difftest {

size_t elemSize(Elem e);
const char *elemName(Elem e);

/// The bytes of one buffer after a run.
using Bytes = std::vector<unsigned char>;

/// Outcome of one buffer's comparison.
struct Mismatch {
  size_t count = 0; // elements out of tolerance
  size_t first = 0; // index of the first
  std::string got, expected, tolerance;
};

/// Compares `got` with `ref` (plain run A). For atomic float/double buffers
/// `ref2` is plain run B and `terms` the count run (terms per element).
Mismatch compareBuffer(const BufferSpec &spec, const Bytes &got,
                       const Bytes &ref, const Bytes &ref2, const Bytes &terms);

/// Elements where two plain runs differ though they must not (integers,
/// plain stores): a generator bug, never the tool's.
size_t unstableElements(const BufferSpec &spec, const Bytes &a, const Bytes &b,
                        size_t *first);

/// The tolerance of one float element summed from `terms` non-negative
/// terms, magnitude `magnitude`, plain run-to-run spread `spread`, for a
/// type whose unit roundoff is `u`.
double sumTolerance(double terms, double magnitude, double spread, double u);

} // namespace difftest

#endif // DISTWAR_TEST_GPU_DIFFTEST_COMPARE_H
