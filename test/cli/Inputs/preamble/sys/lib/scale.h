// A library header of the kind torch's are: read through -isystem, much
// host code, a device function the kernel calls.
#pragma once
#include <cstddef>

namespace lib {
inline std::size_t hostOnly(std::size_t n) { return n * 2 + 1; }
__host__ __device__ inline float scale() { return LIB_SCALE; }
} // namespace lib
