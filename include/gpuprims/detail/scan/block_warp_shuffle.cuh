// block_scan_algorithm::warp_shuffle: a Kogge-Stone scan within each warp, one shared slot per
// warp for its total, one barrier, then each thread folds the totals of the warps before its own.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/maybe.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/warp/scan.cuh>

#include <cuda_runtime.h>

namespace gpuprims::detail {

// One thread's place in a block scan: its inclusive value, and the fold of every earlier thread's
// item (absent in thread 0).
template <class T>
struct block_scan_parts {
  T inclusive;
  maybe<T> before;
};

template <int BlockSize, class T>
struct block_scan_warp_shuffle {
  static constexpr int warps = BlockSize / 32;

  struct storage {
    T warp_totals[warps];
    T slot;  // a value one thread hands to all: the aggregate of a partial tile, or a prefix
  };

  // Order: within a warp Kogge-Stone (warp_inclusive_scan); across warps, thread of warp w
  // combines ((total_0 op total_1) op ... op total_{w-1}) op its warp-inclusive value. A barrier
  // inside; the warp totals stay readable until the caller's next barrier.
  template <class Op>
  __device__ static block_scan_parts<T> scan(storage& s, Op& op, const T& item, int rank) {
    const int warp = rank / 32;
    const int lane = rank % 32;
    const T in_warp = warp_inclusive_scan(item, op);
    if (lane == 31) {
      s.warp_totals[warp] = in_warp;
    }
    __syncthreads();
    const T lane_before = shuffle_up(in_warp, 1);
    maybe<T> warp_before{item, false};
    for (int w = 0; w < warp; ++w) {
      warp_before = {fold_after(warp_before, s.warp_totals[w], op), true};
    }
    block_scan_parts<T> parts{fold_after(warp_before, in_warp, op), warp_before};
    if (lane > 0) {
      parts.before = {fold_after(warp_before, lane_before, op), true};
    }
    return parts;
  }

  // The fold of every warp's total: the block's aggregate. After scan().
  template <class Op>
  __device__ static T total(const storage& s, Op& op) {
    T t = s.warp_totals[0];
#pragma unroll
    for (int w = 1; w < warps; ++w) {
      t = op(t, s.warp_totals[w]);
    }
    return t;
  }
};

}  // namespace gpuprims::detail
