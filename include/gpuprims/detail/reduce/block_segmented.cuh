// A segmented inclusive scan over the threads of a block (flags mark where segments start): the
// block step of gpuprims::block_segmented_reduce and of the segmented device reductions.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/maybe.cuh>
#include <gpuprims/detail/shuffle.cuh>

#include <cuda_runtime.h>

namespace gpuprims::detail {

// Lanes of a converged warp in lane order. `seen` in: a segment starts at this lane; out: one
// starts at or before it (within the warp). Returns the fold, in lane order, from the nearest such
// start up to this lane (from lane 0 where there is none). Five shuffle steps; each combines
// op(lower lanes, upper lanes), so Op need only be associative.
template <class T, class Op>
__device__ __forceinline__ T warp_segmented_scan(T value, bool& seen, Op& op) {
  const int lane = lane_id();
#pragma unroll
  for (int delta = 1; delta < 32; delta *= 2) {
    const T lower = shuffle_up(value, delta);
    const bool lower_seen = __shfl_up_sync(full_warp, seen ? 1 : 0, delta) != 0;
    if (lane >= delta) {
      if (!seen) {
        value = op(lower, value);
      }
      seen = seen || lower_seen;
    }
  }
  return value;
}

template <int BlockSize, class T>
struct block_segmented_scan {
  static_assert(BlockSize > 0 && BlockSize % 32 == 0 && BlockSize <= 1024,
                "BlockSize must be a multiple of 32 up to 1024");
  static constexpr int warps = BlockSize / 32;

  struct storage {
    T warp_value[warps];
    bool warp_seen[warps];
  };

  // The warp scan above over the whole block in rank order: each warp's last lane publishes its
  // warp's (value, seen), warp 0 scans those, and a thread with no start at or before it in its
  // warp folds in the scanned value of the warp before. Two barriers.
  template <class Op>
  __device__ static T inclusive(storage& s, Op& op, T value, bool& seen, int rank) {
    value = warp_segmented_scan(value, seen, op);
    if constexpr (warps > 1) {
      const int warp = rank / 32;
      const int lane = rank % 32;
      if (lane == 31) {
        s.warp_value[warp] = value;
        s.warp_seen[warp] = seen;
      }
      __syncthreads();
      if (warp == 0) {
        // Lanes past the last warp repeat it: they only ever feed lanes above themselves.
        const int w = lane < warps ? lane : warps - 1;
        bool warp_seen = s.warp_seen[w];
        T warp_value = s.warp_value[w];
        __syncwarp();
        warp_value = warp_segmented_scan(warp_value, warp_seen, op);
        if (lane < warps) {
          s.warp_value[lane] = warp_value;
          s.warp_seen[lane] = warp_seen;
        }
      }
      __syncthreads();
      if (warp > 0 && !seen) {
        value = op(s.warp_value[warp - 1], value);
        seen = s.warp_seen[warp - 1];
      }
    }
    return value;
  }
};

}  // namespace gpuprims::detail
