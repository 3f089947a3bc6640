//===- Compare.cpp - One output buffer of a variant against the plain run -===//

#include "Compare.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace difftest {

size_t elemSize(Elem e) {
  switch (e) {
  case kF32:
  case kI32:
  case kU32:
    return 4;
  case kF64:
  case kU64:
    return 8;
  }
  return 0;
}

const char *elemName(Elem e) {
  switch (e) {
  case kF32:
    return "float";
  case kF64:
    return "double";
  case kI32:
    return "int";
  case kU32:
    return "unsigned";
  case kU64:
    return "unsigned long long";
  }
  return "?";
}

double sumTolerance(double terms, double magnitude, double spread, double u) {
  if (terms <= 0)
    return 4 * spread;
  // terms + 1 summands: the start value is one of them.
  const double k = terms + 1;
  const double gamma = k * u / (1 - k * u);
  return std::fmax(4 * spread, 2.02 * gamma * magnitude);
}

template <typename T> static T load(const Bytes &b, size_t i) {
  T v;
  std::memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}

static std::string show(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

template <typename T>
static void compareFloats(const Bytes &got, const Bytes &ref, const Bytes &ref2,
                          const Bytes &terms, bool atomic, Mismatch &m) {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  const size_t n = ref.size() / sizeof(T);
  for (size_t i = 0; i < n; ++i) {
    if (std::memcmp(got.data() + i * sizeof(T), ref.data() + i * sizeof(T),
                    sizeof(T)) == 0)
      continue;
    const double g = load<T>(got, i), r = load<T>(ref, i);
    double tol = 0;
    if (atomic && std::isfinite(g) && std::isfinite(r)) {
      const double spread =
          std::fabs(r - static_cast<double>(load<T>(ref2, i)));
      tol = sumTolerance(load<T>(terms, i),
                         std::fmax(std::fabs(g), std::fabs(r)), spread, u);
      if (std::fabs(g - r) <= tol)
        continue;
    }
    if (m.count++ == 0) {
      m.first = i;
      m.got = show(g);
      m.expected = show(r);
      m.tolerance = show(tol);
    }
  }
}

template <typename T>
static void compareExact(const Bytes &got, const Bytes &ref, Mismatch &m) {
  const size_t n = ref.size() / sizeof(T);
  for (size_t i = 0; i < n; ++i) {
    const T g = load<T>(got, i), r = load<T>(ref, i);
    if (g != r && m.count++ == 0) {
      m.first = i;
      m.got = std::to_string(g);
      m.expected = std::to_string(r);
      m.tolerance = "0";
    }
  }
}

Mismatch compareBuffer(const BufferSpec &spec, const Bytes &got,
                       const Bytes &ref, const Bytes &ref2,
                       const Bytes &terms) {
  Mismatch m;
  const bool atomic = spec.role == kAtomic;
  switch (spec.elem) {
  case kF32:
    compareFloats<float>(got, ref, ref2, terms, atomic, m);
    break;
  case kF64:
    compareFloats<double>(got, ref, ref2, terms, atomic, m);
    break;
  case kI32:
    compareExact<int32_t>(got, ref, m);
    break;
  case kU32:
    compareExact<uint32_t>(got, ref, m);
    break;
  case kU64:
    compareExact<unsigned long long>(got, ref, m);
    break;
  }
  return m;
}

size_t unstableElements(const BufferSpec &spec, const Bytes &a, const Bytes &b,
                        size_t *first) {
  if (spec.role == kAtomic && (spec.elem == kF32 || spec.elem == kF64))
    return 0; // summation order legitimately differs between runs
  const size_t size = elemSize(spec.elem);
  size_t count = 0;
  for (size_t i = 0; i * size < a.size(); ++i)
    if (std::memcmp(a.data() + i * size, b.data() + i * size, size) != 0 &&
        count++ == 0 && first)
      *first = i;
  return count;
}

} // namespace difftest
