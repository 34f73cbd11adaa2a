// A value that may be absent, and the folds over such values: reductions and scans here need no
// identity element, so "nothing yet" is a flag rather than a zero. (Host too: the tests emulate
// the library's orders with these.)
#pragma once

#include <gpuprims/config.cuh>

#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <type_traits>

namespace gpuprims::detail {

template <class T>
struct maybe {
  T value;
  bool has;
};

// op(before, x) where before exists, else x.
template <class T, class Op>
__host__ __device__ __forceinline__ T fold_after(const maybe<T>& before, const T& x, Op& op) {
  return before.has ? op(before.value, x) : x;
}

// before op x, where either may be absent.
template <class T, class Op>
__host__ __device__ __forceinline__ maybe<T> fold_maybe(const maybe<T>& before, const maybe<T>& x,
                                                        Op& op) {
  if (!x.has) {
    return before;
  }
  return {fold_after(before, x.value, op), true};
}

// Op lifted to maybe values.
template <class Op>
struct maybe_op {
  Op op;
  template <class T>
  __device__ __forceinline__ maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) {
    if (!a.has) {
      return b;
    }
    if (!b.has) {
      return a;
    }
    return {op(a.value, b.value), true};
  }
};

// Operators with an identity (Op::identity()) serve the overloads without `init`.
template <class Op, class T, class = void>
inline constexpr bool has_identity = false;
template <class Op, class T>
inline constexpr bool has_identity<Op, T, std::void_t<decltype(Op::identity())>> =
    std::is_convertible_v<decltype(Op::identity()), T>;

// An element that leaves every x unchanged, bits included: Op's identity, except that a sum of
// floats or doubles takes -0 (x + -0 is x for every x, -0 too; x + +0 turns -0 into +0). For
// minimum and maximum, a NaN on the right loses to it on the left, as to any value.
template <class Op, class T>
__host__ __device__ __forceinline__ T neutral() {
  if constexpr (std::is_same_v<Op, plus<T>> && std::is_floating_point_v<T>) {
    return -T(0);
  } else {
    return static_cast<T>(Op::identity());
  }
}

}  // namespace gpuprims::detail
