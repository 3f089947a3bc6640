//===- ReduceInt.cu - the int cases ---------------------------------------===//

#include "ReduceCases.cuh"

namespace reducetest {

void runInt(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt) {
  runType<int>(tally, rng, opt);
}

} // namespace reducetest
