//===- StrategyMisuse.cu - Strategy misuse that must not compile ----------===//
//
// Compiled by CheckMisuse.cmake once per case (-DDWK_CASE=<n>); every case
// but `ok` must fail with its diagnostic:
//   ok           the spelling of generated code, with and without
//                auto_strategy.cuh
//   not-a-type   a reduction given something other than a strategy type
// plus the flags the script adds: -DDISTWAR_STRATEGY (a per-TU default that
// the runtime refuses), and auto_strategy.cuh without or with a bad
// DWK_AUTO_STRATEGY.
//
//===----------------------------------------------------------------------===//
#include <distwar/runtime.cuh>

__global__ void misuse(float *grads, int key) {
  distwar::Batch<float, 2> b;
  b.set(0, &grads[key * 2], 1.0f);
#if DWK_CASE == 1
  distwar::reduceSerial<int>(b, key, 0);
#else
  ::distwar::reduceSerial(b, key, 0);
  ::distwar::reduceButterfly(b, true, key, 0);
  ::distwar::reduceButterflyUniform(b, true, key, 0);
#endif
}
