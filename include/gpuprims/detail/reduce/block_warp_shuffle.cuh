// block_reduce_algorithm::warp_shuffle: shuffles within each warp, one shared slot per warp, one
// barrier, then the warp partials.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/warp/reduce.cuh>

#include <cuda_runtime.h>

namespace gpuprims::detail {

template <int BlockSize, class T>
struct block_reduce_warp_shuffle {
  static constexpr int warps = BlockSize / 32;

  struct storage {
    T warp_partials[warps];
    T result;
  };

  // A full tile: no lane checks. Up to 16 warps, thread 0 folds the partials in order (as
  // cub::BlockReduce does: cheaper than a second round of five shuffles over a part-empty warp);
  // above, warp 0 shuffles them.
  template <class Op>
  __device__ static T full(storage& s, Op& op, const T& item, int rank) {
    const int warp = rank / 32;
    T partial = warp_reduce_full(item, op);
    if (rank % 32 == 0) {
      s.warp_partials[warp] = partial;
    }
    __syncthreads();
    if constexpr (warps <= 16) {
      if (rank == 0) {
#pragma unroll
        for (int w = 1; w < warps; ++w) {
          partial = op(partial, s.warp_partials[w]);
        }
      }
    } else {
      if (warp == 0) {
        const int lane = rank % 32;
        // Lanes past the last warp read slot 0: a value they never contribute.
        partial = warp_reduce(s.warp_partials[lane < warps ? lane : 0], op, warps);
      }
    }
    return partial;
  }

  template <class Op>
  __device__ static T partial(storage& s, Op& op, const T& item, int num_valid, int rank) {
    const int warp = rank / 32;
    const int lane = rank % 32;
    const int valid_in_warp = num_valid - warp * 32;
    T partial = warp_reduce(item, op, valid_in_warp < 32 ? valid_in_warp : 32);
    if (lane == 0 && valid_in_warp > 0) {
      s.warp_partials[warp] = partial;
    }
    __syncthreads();
    if (warp == 0) {
      const int valid_warps = (num_valid + 31) / 32;
      // Lanes past the last partial read slot 0: a value they never contribute (valid_warps).
      T p = s.warp_partials[lane < valid_warps ? lane : 0];
      if constexpr (warps > 1) {
        p = warp_reduce(p, op, valid_warps);
      }
      partial = p;
    }
    return partial;
  }
};

}  // namespace gpuprims::detail
