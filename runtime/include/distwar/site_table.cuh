//===- distwar/site_table.cuh - Run-time thresholds of batched sites -----===//
//
// DISTWAR_SITES(table, "fn#0", "fn#1", ...) at namespace scope defines
//   static __constant__ int table[N];   // zero-initialised: always reduce
// and a static host object that registers (names, N, &table) with the
// process-wide registry of distwar/sites.h (no CUDA call at static init).
// DISTWAR_SITES_INITIAL(table, (33, 0, ...), "fn#0", "fn#1", ...) is the
// same with each site's value before anything sets one (the rewriter starts a
// site at 33, plain atomics, where a reduction pays only on some inputs, so
// that it reduces only once a tuner has measured that it pays); the table is
// initialised with them on every device, and the registry knows them.
// DISTWAR_SITE_THRESHOLD(table, k) reads table[k] in device code (k a constant
// expression) as a distwar::UniformThreshold: the same word in every lane, so
// the reductions need no vote on it (distwar/threshold.cuh). The host changes
// it only between launches. The table is in constant memory: every
// lane reads the same word, which the constant cache serves as an operand,
// and atomics cannot write it, so the compiler may keep the read out of loops
// (a `__device__` table read through `__ldg` stayed a global load per
// iteration of the 3DGS backward's inner loop, on the reduction's path).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_SITE_TABLE_CUH
#define DISTWAR_SITE_TABLE_CUH

#include "distwar/sites.h"
#include "distwar/threshold.cuh"

#define DISTWAR_SITES(table, ...)                                              \
  static const char *const table##_distwar_site_names[] = {__VA_ARGS__};       \
  static __constant__ int table[DISTWAR_DETAIL_SITE_COUNT(table)];             \
  DISTWAR_DETAIL_REGISTER_SITES(table, nullptr)

#define DISTWAR_SITES_INITIAL(table, initial, ...)                             \
  static const char *const table##_distwar_site_names[] = {__VA_ARGS__};       \
  static const int table##_distwar_site_initial[] = {                          \
      DISTWAR_DETAIL_UNPARENTHESIZE initial};                                  \
  static_assert(sizeof(table##_distwar_site_initial) / sizeof(int) ==          \
                    DISTWAR_DETAIL_SITE_COUNT(table),                          \
                "distwar: one initial threshold per site");                    \
  static __constant__ int table[DISTWAR_DETAIL_SITE_COUNT(table)] = {          \
      DISTWAR_DETAIL_UNPARENTHESIZE initial};                                  \
  DISTWAR_DETAIL_REGISTER_SITES(table, table##_distwar_site_initial)

// The number of sites of `table` (its names array).
#define DISTWAR_DETAIL_SITE_COUNT(table)                                       \
  (sizeof(table##_distwar_site_names) / sizeof(table##_distwar_site_names[0]))
// The host object that registers `table` (initial: an int array or nullptr).
#define DISTWAR_DETAIL_REGISTER_SITES(table, initial)                          \
  static const ::distwar::detail::SiteRegistration                             \
      table##_distwar_registration(                                            \
          #table, table##_distwar_site_names,                                  \
          static_cast<int>(DISTWAR_DETAIL_SITE_COUNT(table)),                  \
          static_cast<const void *>(&table), initial)
#define DISTWAR_DETAIL_UNPARENTHESIZE(...) __VA_ARGS__

#define DISTWAR_SITE_THRESHOLD(table, k)                                       \
  (::distwar::detail::siteThreshold<(k)>(table))

#endif // DISTWAR_SITE_TABLE_CUH
