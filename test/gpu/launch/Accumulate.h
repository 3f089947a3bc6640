// A kernel with gradient-style atomics and its launcher, written as a user
// writes them (Accumulate.cu); the test links the copy distwar-rewrite made,
// whose launch is wrapped for tuning.
#pragma once

#include <cuda_runtime.h>

struct AccumulateArgs {
  unsigned long long *sums;    // [keys], accumulated into
  unsigned long long *squares; // [keys], accumulated into
  const int *keys;             // [n]
  const unsigned *values;      // [n]
  int n;
};

void launchAccumulate(const AccumulateArgs &args, cudaStream_t stream);
