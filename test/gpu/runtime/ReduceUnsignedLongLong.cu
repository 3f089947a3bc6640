//===- ReduceUnsignedLongLong.cu - the unsigned long long cases -----------===//

#include "ReduceCases.cuh"

namespace reducetest {

void runUnsignedLongLong(gpucheck::Tally &tally, std::mt19937 &rng,
                         const Options &opt) {
  runType<unsigned long long>(tally, rng, opt);
}

} // namespace reducetest
