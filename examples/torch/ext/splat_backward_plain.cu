// The original splat_backward.cu, compiled as it is (plain atomicAdd) inside
// namespace plain, so the extension can compare and time both kernels. This
// file is not given to distwar-rewrite. Its headers are included first so
// that their contents stay outside the namespace.
#include "splat_backward.h"

#include <cuda_runtime.h>

namespace plain {
#include "splat_backward.cu"
} // namespace plain
