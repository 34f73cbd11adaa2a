// The shared-memory rungs of the reduction ladder (the reference notes' reduce0-reduce5), each a
// block-level tree over data[0, num_valid) in shared memory, and block_reduce_tree, which gives
// them the block-reduction shape (ladder::block_reduce). Every thread of the block calls them;
// every barrier is reached by all threads.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>

namespace gpuprims::detail {

// The smallest power of two >= X (a variable template: usable in device code without relaxed
// constexpr).
template <int X, int P = 1, bool Done = (P >= X)>
struct power_of_two_at_least {
  static constexpr int value = power_of_two_at_least<X, 2 * P>::value;
};
template <int X, int P>
struct power_of_two_at_least<X, P, true> {
  static constexpr int value = P;
};
template <int X>
inline constexpr int next_power_of_two = power_of_two_at_least<X>::value;
static_assert(next_power_of_two<32> == 32 && next_power_of_two<96> == 128 &&
              next_power_of_two<992> == 1024 && next_power_of_two<1024> == 1024 &&
              next_power_of_two<160> == 256);

template <int BlockSize, class T, class Op>
__device__ __forceinline__ void tree_interleaved_modulo(T* data, int tid, int num_valid, Op& op) {
#pragma unroll 1
  for (int step = 1; step < BlockSize; step *= 2) {
    if (tid % (2 * step) == 0 && tid + step < num_valid) {
      data[tid] = op(data[tid], data[tid + step]);
    }
    __syncthreads();
  }
}

template <int BlockSize, class T, class Op>
__device__ __forceinline__ void tree_interleaved_strided(T* data, int tid, int num_valid, Op& op) {
#pragma unroll 1
  for (int step = 1; step < BlockSize; step *= 2) {
    const int index = 2 * step * tid;
    if (index + step < num_valid) {
      data[index] = op(data[index], data[index + step]);
    }
    __syncthreads();
  }
}

// Sequential addressing down to `stop` partials (1: all the way).
template <int BlockSize, bool Unrolled, class T, class Op>
__device__ __forceinline__ void tree_sequential(T* data, int tid, int num_valid, int stop, Op& op) {
  constexpr int top = next_power_of_two<BlockSize> / 2;
  if constexpr (Unrolled) {
#pragma unroll
    for (int step = top; step > 0; step /= 2) {
      if (step >= stop) {
        if (tid < step && tid + step < num_valid) {
          data[tid] = op(data[tid], data[tid + step]);
        }
        __syncthreads();
      }
    }
  } else {
#pragma unroll 1
    for (int step = top; step >= stop; step /= 2) {
      if (tid < step && tid + step < num_valid) {
        data[tid] = op(data[tid], data[tid + step]);
      }
      __syncthreads();
    }
  }
}

// The last 64 partials in warp 0. The notes' version relied on implicit warp-synchronous execution
// through volatile shared memory, which Volta's independent thread scheduling no longer guarantees:
// here each step reads, __syncwarp()s, writes, __syncwarp()s.
template <int BlockSize, bool Unrolled, class T, class Op>
__device__ __forceinline__ void tree_last_warp(T* data, int tid, int num_valid, Op& op) {
  constexpr int top = next_power_of_two<BlockSize> / 2;
  tree_sequential<BlockSize, Unrolled>(data, tid, num_valid, 64, op);
  if (tid < 32) {
    T v = data[tid];
#pragma unroll
    for (int step = top < 32 ? top : 32; step > 0; step /= 2) {
      if (tid < step && tid + step < num_valid) {
        v = op(v, data[tid + step]);
      }
      __syncwarp();
      if (tid < step) {
        data[tid] = v;
      }
      __syncwarp();
    }
  }
}

// Which tree a ladder rung runs.
enum class tree_kind {
  interleaved_modulo,
  interleaved_strided,
  sequential,
  last_warp,
  last_warp_unrolled
};

// A tree as a block-reduction algorithm (block_front.cuh): each thread's item in data[rank], the
// tree, the result in data[0], read by rank 0 only (it wrote it last, or a barrier followed).
template <tree_kind Kind, int BlockSize, class T>
struct block_reduce_tree {
  struct storage {
    T data[BlockSize];
    T result;
  };

  template <class Op>
  __device__ static T full(storage& s, Op& op, const T& item, int rank) {
    return partial(s, op, item, BlockSize, rank);
  }

  template <class Op>
  __device__ static T partial(storage& s, Op& op, const T& item, int num_valid, int rank) {
    if (rank < num_valid) {
      s.data[rank] = item;
    }
    __syncthreads();
    if constexpr (Kind == tree_kind::interleaved_modulo) {
      tree_interleaved_modulo<BlockSize>(s.data, rank, num_valid, op);
    } else if constexpr (Kind == tree_kind::interleaved_strided) {
      tree_interleaved_strided<BlockSize>(s.data, rank, num_valid, op);
    } else if constexpr (Kind == tree_kind::sequential) {
      tree_sequential<BlockSize, false>(s.data, rank, num_valid, 1, op);
    } else {
      tree_last_warp<BlockSize, Kind == tree_kind::last_warp_unrolled>(s.data, rank, num_valid, op);
    }
    return rank == 0 ? s.data[0] : item;
  }
};

}  // namespace gpuprims::detail
