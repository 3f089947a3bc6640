//===- distwar/reduce_together.cuh - Serial groups reduced as one --------===//
//
// The corners of a bilinear lookup are four serial groups, each keyed by its
// own texel, and lanes that share one corner's texel share all four (they
// share the base texel). Reduced one by one, each corner pays its own match
// and its own shuffle tree over three values. reduceSerialTogether takes
// such groups as parts and, in a warp where it pays and is sound, reduces
// all their fields as one batch: one match, one tree.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_REDUCE_TOGETHER_CUH
#define DISTWAR_REDUCE_TOGETHER_CUH

#include "distwar/batch.cuh"
#include "distwar/reduce.cuh"

#include <tuple>
#include <type_traits>

namespace distwar {

/// One serial group's reduction, not yet run: reduceSerial's arguments.
template <typename B, typename Key, typename Threshold, typename AddrOf>
struct SerialPart {
  using BatchType = B;
  const B &batch;
  Key key;
  Threshold threshold;
  AddrOf addrOf;
};

/// A part with deferred addresses (reduceSerial(f, key, threshold, addrOf)).
template <typename T, int N, typename... R, typename Key, typename Threshold,
          typename AddrOf>
__device__ __forceinline__ SerialPart<Fields<T, N, R...>, Key, Threshold,
                                      AddrOf>
serialPart(const Fields<T, N, R...> &f, Key key, Threshold threshold,
           const AddrOf &addrOf) {
  return {f, key, threshold, addrOf};
}

/// A part with the batch's own addresses (reduceSerial(b, key, threshold)).
template <typename T, int N, typename... R, typename Key, typename Threshold>
__device__ __forceinline__ SerialPart<
    Batch<T, N, R...>, Key, Threshold, detail::BatchAddress<Batch<T, N, R...>>>
serialPart(const Batch<T, N, R...> &b, Key key, Threshold threshold) {
  return {b, key, threshold, {b}};
}

namespace detail {

template <typename S, typename P>
__device__ __forceinline__ void reduceAlone(const P &p) {
  serial<S>(p.batch, p.key, p.threshold, p.addrOf);
}

/// The parts' fields one after another, the first part's slots first.
template <typename... P> struct PartList;
template <> struct PartList<> {
  static constexpr int kSize = 0;
  template <typename T> __device__ __forceinline__ T *addr(int) const {
    return nullptr;
  }
  template <typename F> __device__ __forceinline__ void gather(F &, int) const {}
};
template <typename H, typename... Rest> struct PartList<H, Rest...> {
  const H &head;
  PartList<Rest...> rest;
  static constexpr int kHead = H::BatchType::kSize;
  static constexpr int kSize = kHead + PartList<Rest...>::kSize;

  /// Field j of the joined batch's address (j a constant after unrolling).
  template <typename T> __device__ __forceinline__ T *addr(int j) const {
    return j < kHead ? head.addrOf(j) : rest.template addr<T>(j - kHead);
  }
  /// The parts' values and presence, into \p all from slot \p first on.
  template <typename F>
  __device__ __forceinline__ void gather(F &all, int first) const {
#pragma unroll
    for (int c = 0; c < kHead; ++c) {
      all.val[first + c] = head.batch.val[c];
      if (head.batch.has(c))
        all.present[0] |= 1u << (first + c);
    }
    rest.gather(all, first + kHead);
  }
};

__device__ __forceinline__ PartList<> listOf() { return {}; }
template <typename H, typename... Rest>
__device__ __forceinline__ PartList<H, Rest...> listOf(const H &head,
                                                       const Rest &...rest) {
  return {head, listOf(rest...)};
}

/// The joined batch's address source.
template <typename L, typename T> struct JoinedAddress {
  const L &list;
  __device__ __forceinline__ T *operator()(int j) const {
    return list.template addr<T>(j);
  }
};

template <typename H, typename... Rest>
__device__ __forceinline__ const H &firstOf(const H &head, const Rest &...) {
  return head;
}

/// Whether every lane of `mask` has the key of its group's first lane
/// `lead` (all of `mask` call).
template <typename Key>
__device__ __forceinline__ bool leadHasKey(unsigned mask, Key key, int lead) {
  const MatchType<Key> mine = matchKey(key);
  return __shfl_sync(mask, mine, lead) == mine;
}

/// The element type of the first part's batch.
template <typename... P>
using FirstType =
    typename std::tuple_element<0, std::tuple<P...>>::type::BatchType::Type;

/// Whether parts P can be joined at compile time: two or more, one element
/// type, no LaneSet slots (their presence would need sharing per part), at
/// most kMaxBatchFields fields together, each part holding one.
template <typename... P> __host__ __device__ constexpr bool joinable() {
  using T = FirstType<P...>;
  return sizeof...(P) >= 2 &&
         (std::is_same<typename P::BatchType::Type, T>::value && ...) &&
         ((P::BatchType::laneSetInFirstWord() == 0u) && ...) &&
         ((P::BatchType::kSize > 0) && ...) &&
         (P::BatchType::kSize + ...) <= kMaxBatchFields;
}

} // namespace detail

/// Reduces serial groups (serialPart(...) each, reduceSerial's arguments)
/// that the lanes calling reach together. In a warp where every part's
/// threshold is reached and each key group of the first part's key also
/// shares every other part's key (checked: one shuffle per part and one
/// vote), all their fields are summed as one batch over those groups, and
/// each group's leader issues every part's fields at that part's addresses.
/// Everywhere else each part is reduced on its own, as reduceSerial would.
/// Either way each part adds what its reduceSerial would have added.
template <typename S = DefaultStrategy, typename... P>
__device__ __forceinline__ void reduceSerialTogether(const P &...parts) {
  detail::checkStrategy<S>();
  if constexpr (!detail::joinable<P...>()) {
    (detail::reduceAlone<S>(parts), ...);
  } else {
    const unsigned mask = __activemask();
    const int calling = detail::popCount(mask);
    // Each test is the same in every lane of `mask`, so all of them stop at
    // the same one and run the same collectives.
    bool joined = (detail::allReach(mask, calling, parts.threshold) && ...);
    unsigned peers = 0;
    if (joined) {
      peers = __match_any_sync(mask, detail::matchKey(
                                         detail::firstOf(parts...).key));
      const int lead = __ffs(peers) - 1;
      joined =
          __all_sync(mask, (detail::leadHasKey(mask, parts.key, lead) && ...));
    }
    if (!joined) {
      (detail::reduceAlone<S>(parts), ...);
      return;
    }
    using T = detail::FirstType<P...>;
    const auto list = detail::listOf(parts...);
    Fields<T, decltype(list)::kSize> all;
    list.gather(all, 0);
    detail::reduceMatched<S>(
        all, detail::JoinedAddress<decltype(list), T>{list}, mask, peers);
  }
}

} // namespace distwar

#endif // DISTWAR_REDUCE_TOGETHER_CUH
