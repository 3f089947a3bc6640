//===- ReduceFloat.cu - the float cases -----------------------------------===//

#include "ReduceCases.cuh"

namespace reducetest {

void runFloat(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt) {
  runType<float>(tally, rng, opt);
}

} // namespace reducetest
