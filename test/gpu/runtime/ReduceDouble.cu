//===- ReduceDouble.cu - the double cases ---------------------------------===//

#include "ReduceCases.cuh"

namespace reducetest {

void runDouble(gpucheck::Tally &tally, std::mt19937 &rng, const Options &opt) {
  runType<double>(tally, rng, opt);
}

} // namespace reducetest
