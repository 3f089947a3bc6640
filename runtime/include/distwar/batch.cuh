//===- distwar/batch.cuh - The fields of one batched gradient group ------===//
//
// A Batch holds, per lane, the address and value of every atomicAdd of one
// group (one primitive key). The rewriter replaces each atomicAdd with set()
// at a slot that is a compile-time constant after unrolling, so the arrays
// live in registers (checked by the register-report test).
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_BATCH_CUH
#define DISTWAR_BATCH_CUH

#include <type_traits>

namespace distwar {

template <typename T, int N> struct Batch {
  static_assert(N >= 1, "a batch holds at least one field");
  static_assert(std::is_same<T, float>::value ||
                    std::is_same<T, double>::value ||
                    std::is_same<T, int>::value ||
                    std::is_same<T, unsigned>::value ||
                    std::is_same<T, unsigned long long>::value,
                "Batch element types: float, double, int, unsigned, "
                "unsigned long long (the types atomicAdd accepts)");

  /// nullptr: the field was not written this iteration (a condition that is
  /// uniform across the lanes of one key).
  T *addr[N];
  T val[N];

  __device__ __forceinline__ Batch() {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      addr[i] = nullptr;
      val[i] = T(0);
    }
  }

  __device__ __forceinline__ void set(int slot, T *a, T v) {
    addr[slot] = a;
    val[slot] = v;
  }
};

} // namespace distwar

#endif // DISTWAR_BATCH_CUH
