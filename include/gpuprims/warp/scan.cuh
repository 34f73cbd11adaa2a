// warp_inclusive_scan and warp_exclusive_scan: prefix scans over the lanes of a warp (or of
// logical warps of 2 to 32 lanes) with shuffles, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/shuffle.cuh>

#include <cuda_runtime.h>

#include <type_traits>

namespace gpuprims {
namespace detail {

template <int Lanes>
inline constexpr bool logical_warp_size =
    Lanes == 2 || Lanes == 4 || Lanes == 8 || Lanes == 16 || Lanes == 32;

}  // namespace detail

/// Inclusive scan over groups of Lanes consecutive lanes (Lanes = 2, 4, 8, 16 or 32): lane i of a
/// group gets x[0] op x[1] op ... op x[i] of its group. Kogge-Stone: log2(Lanes) shuffle steps, at
/// each step op(lower lanes, this lane), so Op need only be associative (not commutative) and the
/// order, hence the bits, is fixed. Every lane of the warp calls it, converged. T is any trivially
/// copyable type (moved as 32-bit words).
///
///   const int running = gpuprims::warp_inclusive_scan(x, gpuprims::plus<int>{});
template <int Lanes = 32, class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T value, Op op) {
  static_assert(detail::logical_warp_size<Lanes>, "a logical warp has 2, 4, 8, 16 or 32 lanes");
  static_assert(std::is_trivially_copyable_v<T>, "a warp scan moves T through shuffles");
  const int lane = detail::lane_id() % Lanes;
#pragma unroll
  for (int offset = 1; offset < Lanes; offset *= 2) {
    const T lower = detail::shuffle_up(value, offset, Lanes);
    if (lane >= offset) {
      value = op(lower, value);
    }
  }
  return value;
}

/// The same, and every lane gets its group's total (the inclusive value of the group's last lane).
///
///   int total;
///   const int running = gpuprims::warp_inclusive_scan(x, gpuprims::plus<int>{}, total);
template <int Lanes = 32, class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T value, Op op, T& group_total) {
  const T inclusive = warp_inclusive_scan<Lanes>(value, op);
  group_total = detail::shuffle_from(inclusive, Lanes - 1, Lanes);
  return inclusive;
}

/// Exclusive scan over groups of Lanes lanes: lane 0 of a group gets init, lane i > 0 gets
/// init op x[0] op ... op x[i - 1]. Same order rules as warp_inclusive_scan (init is folded into
/// lane 0's value first).
///
///   const int offset = gpuprims::warp_exclusive_scan(count, 0, gpuprims::plus<int>{});
template <int Lanes = 32, class T, class Op>
__device__ __forceinline__ T warp_exclusive_scan(T value, T init, Op op) {
  const int lane = detail::lane_id() % Lanes;
  if (lane == 0) {
    value = op(init, value);
  }
  const T inclusive = warp_inclusive_scan<Lanes>(value, op);
  const T before = detail::shuffle_up(inclusive, 1, Lanes);
  return lane == 0 ? init : before;
}

/// The same, and every lane gets its group's total including init.
template <int Lanes = 32, class T, class Op>
__device__ __forceinline__ T warp_exclusive_scan(T value, T init, Op op, T& group_total) {
  const int lane = detail::lane_id() % Lanes;
  if (lane == 0) {
    value = op(init, value);
  }
  const T inclusive = warp_inclusive_scan<Lanes>(value, op, group_total);
  const T before = detail::shuffle_up(inclusive, 1, Lanes);
  return lane == 0 ? init : before;
}

}  // namespace gpuprims
