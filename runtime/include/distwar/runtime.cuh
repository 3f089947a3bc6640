//===- distwar/runtime.cuh - Everything rewritten code includes ----------===//
//
// The one header distwar-rewrite adds to a file (docs/GENERATED_CODE.md).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_RUNTIME_CUH
#define DISTWAR_RUNTIME_CUH

#include "distwar/batch.cuh"
#include "distwar/block_reduce.cuh"
#include "distwar/channel_versions.h"
#include "distwar/launch.h"
#include "distwar/reduce.cuh"
#include "distwar/reduce_together.cuh"
#include "distwar/site_table.cuh"
#include "distwar/strip.cuh"

#endif // DISTWAR_RUNTIME_CUH
