//===- TileTestCode.h - cooperative groups for the tile tests ---*- C++ -*-===//
//
// The hermetic shim has no cooperative groups: the --balance=tiles tests
// prepend this much of them (bodies included, as the SDK's have).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TEST_UNIT_REWRITER_TILETESTCODE_H
#define DISTWAR_TEST_UNIT_REWRITER_TILETESTCODE_H

#include <string>

namespace distwar {
namespace test {

inline std::string withGroups(const std::string &Code) {
  return R"cu(
    namespace cooperative_groups {
    struct thread_block {
      __device__ static dim3 group_index() {
        return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
      }
      __device__ void sync() const { __syncthreads(); }
      __device__ unsigned thread_rank() const { return threadIdx.x; }
    };
    __device__ inline thread_block this_thread_block() { return {}; }
    struct grid_group {
      __device__ void sync() const {}
    };
    __device__ inline grid_group this_grid() { return {}; }
    }
    namespace cg = cooperative_groups;
    __device__ void __threadfence();
  )cu" + Code;
}

} // namespace test
} // namespace distwar

#endif
