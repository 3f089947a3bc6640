//===- distwar/site_table.cuh - Run-time thresholds of batched sites -----===//
//
// DISTWAR_SITES(table, "fn#0", "fn#1", ...) at namespace scope defines
//   static __device__ int table[N];   // zero-initialised: always reduce
// and a static host object that registers (names, N, &table) with the
// process-wide registry of distwar/sites.h (no CUDA call at static init).
// DISTWAR_SITE_THRESHOLD(table, k) reads table[k] in device code through the
// read-only data cache; the host changes it only between launches.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_SITE_TABLE_CUH
#define DISTWAR_SITE_TABLE_CUH

#include "distwar/sites.h"

namespace distwar {
namespace detail {

__device__ __forceinline__ int loadThreshold(const int *slot) {
#if defined(__CUDA_ARCH__)
  return __ldg(slot);
#else
  return *slot;
#endif
}

} // namespace detail
} // namespace distwar

#define DISTWAR_SITES(table, ...)                                              \
  static const char *const table##_distwar_site_names[] = {__VA_ARGS__};       \
  static __device__ int table[sizeof(table##_distwar_site_names) /             \
                              sizeof(table##_distwar_site_names[0])];          \
  static const ::distwar::detail::SiteRegistration                             \
      table##_distwar_registration(                                            \
          #table, table##_distwar_site_names,                                  \
          static_cast<int>(sizeof(table##_distwar_site_names) /                \
                           sizeof(table##_distwar_site_names[0])),             \
          static_cast<const void *>(&table))

#define DISTWAR_SITE_THRESHOLD(table, k)                                       \
  (::distwar::detail::loadThreshold(&(table)[(k)]))

#endif // DISTWAR_SITE_TABLE_CUH
