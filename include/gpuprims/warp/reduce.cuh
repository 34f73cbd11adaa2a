// warp_reduce: a reduction over the lanes of a warp with shuffles, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

namespace gpuprims {
namespace detail {

// Every lane of a converged warp contributes: five shuffles, no lane checks, no branch.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_full(T value, Op& op) {
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    value = op(value, shuffle_down(value, offset));
  }
  return value;
}

}  // namespace detail

/// Reduces one value per lane of a full, converged warp; lanes at or past `valid` do not take part.
/// The result is valid in lane 0. Five shuffle steps, no shared memory, no barrier. Lanes combine
/// in lane order (pairs, then pairs of pairs), so Op need only be associative, not commutative.
///
///   float s = gpuprims::warp_reduce(x, gpuprims::plus<float>{});
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T value, Op op, int valid = 32) {
  if (valid >= 32) {
    return detail::warp_reduce_full(value, op);
  }
  const int lane = detail::lane_id();
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const T other = detail::shuffle_down(value, offset);
    if (lane + offset < valid) {
      value = op(value, other);
    }
  }
  return value;
}

/// Many small reductions per warp: the warp's lanes form 32 / Lanes groups of Lanes consecutive
/// lanes (Lanes = 2, 4, 8, 16 or 32), and every lane gets the reduction of its group's values, the
/// same bits in every lane. Lanes combine in lane order (pairs, then pairs of pairs: at each step
/// op(lower lanes, upper lanes)), so Op need only be associative. Every lane of the warp calls it,
/// converged. log2(Lanes) shuffles, no shared memory.
///
///   const float row_sum = gpuprims::logical_warp_reduce<8>(x, gpuprims::plus<float>{});
template <int Lanes, class T, class Op>
__device__ __forceinline__ T logical_warp_reduce(T value, Op op) {
  static_assert(Lanes == 2 || Lanes == 4 || Lanes == 8 || Lanes == 16 || Lanes == 32,
                "a logical warp has 2, 4, 8, 16 or 32 lanes");
  const int lane = detail::lane_id();
#pragma unroll
  for (int offset = 1; offset < Lanes; offset *= 2) {
    const T other = detail::shuffle_xor(value, offset);
    value = (lane & offset) == 0 ? op(value, other) : op(other, value);
  }
  return value;
}

}  // namespace gpuprims
