//===- auto_strategy.cuh - Generated code built with another strategy ----===//
//
// Force-included (`-include auto_strategy.cuh -DDWK_AUTO_STRATEGY=<n>`) into
// the auto_s<n> copies of the auto variant: the same tool output, text
// unchanged, with every reduction it calls given strategy n instead of
// distwar::DefaultStrategy:
//   0 strategy::Leader        1 strategy::TreeLaneK
//   2 strategy::ScatterLaneK  3 strategy::ScatterLeader (the default)
//
// Generated code calls `::distwar::reduceSerial(batch, key, threshold...)`
// with no strategy. After the runtime is included, each reduction's name is
// made to expand to itself with the strategy as its first template argument,
// so that call reads `::distwar::reduceSerial<S>(batch, ...)`: a different
// specialisation of the same template, the one every other translation unit
// that names S instantiates too. Nothing in the runtime is defined
// differently here (DefaultStrategy included), so units built with and
// without this header can be linked into one program; their own kernels
// differ by DISTWAR_VARIANT_NS. A macro that expands to its own name is not
// expanded again, and only names that follow are affected: the runtime's
// declarations, seen first, keep theirs.
//
//===----------------------------------------------------------------------===//
#ifndef DWK_AUTO_STRATEGY_CUH
#define DWK_AUTO_STRATEGY_CUH

#include <distwar/runtime.cuh>

#ifndef DWK_AUTO_STRATEGY
#error "auto_strategy.cuh: define DWK_AUTO_STRATEGY: 0 Leader, 1 TreeLaneK, \
2 ScatterLaneK or 3 ScatterLeader"
#endif

#if DWK_AUTO_STRATEGY == 0
#define DWK_AUTO_STRATEGY_TYPE ::distwar::strategy::Leader
#elif DWK_AUTO_STRATEGY == 1
#define DWK_AUTO_STRATEGY_TYPE ::distwar::strategy::TreeLaneK
#elif DWK_AUTO_STRATEGY == 2
#define DWK_AUTO_STRATEGY_TYPE ::distwar::strategy::ScatterLaneK
#elif DWK_AUTO_STRATEGY == 3
#define DWK_AUTO_STRATEGY_TYPE ::distwar::strategy::ScatterLeader
#else
#error "auto_strategy.cuh: DWK_AUTO_STRATEGY is 0 Leader, 1 TreeLaneK, \
2 ScatterLaneK or 3 ScatterLeader"
#endif

#define reduceSerial reduceSerial<DWK_AUTO_STRATEGY_TYPE>
#define reduceButterfly reduceButterfly<DWK_AUTO_STRATEGY_TYPE>
#define reduceButterflyUniform reduceButterflyUniform<DWK_AUTO_STRATEGY_TYPE>
#define reduceButterflyOrSerial reduceButterflyOrSerial<DWK_AUTO_STRATEGY_TYPE>
#define reduceButterflyUniformOrSerial                                         \
  reduceButterflyUniformOrSerial<DWK_AUTO_STRATEGY_TYPE>

#endif // DWK_AUTO_STRATEGY_CUH
