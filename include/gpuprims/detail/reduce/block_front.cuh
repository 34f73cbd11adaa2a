// The methods every block-level reduction offers (block_reduce and the ladder's rungs), over an
// algorithm that supplies its shared storage and its full- and partial-tile block steps.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>

#include <cuda_runtime.h>

#include <type_traits>

namespace gpuprims::detail {

// This thread's rank in a block of BlockSize threads: threadIdx.x in a 1D block (the common case,
// no reads of threadIdx.y, .z), the row-major linear index otherwise.
template <int BlockSize>
__device__ __forceinline__ int block_rank() {
  if (blockDim.x == BlockSize) {
    return static_cast<int>(threadIdx.x);
  }
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

// items[0] op items[1] op ... in index order, each converted to T: a thread's own array, folded
// before a block collective combines the threads.
template <class T, int Items, class Item, class Op>
__device__ __forceinline__ T fold_in_order(const Item (&items)[Items], Op& op) {
  static_assert(Items > 0, "at least one item per thread");
  T folded = static_cast<T>(items[0]);
#pragma unroll
  for (int i = 1; i < Items; ++i) {
    folded = op(folded, static_cast<T>(items[i]));
  }
  return folded;
}

// Algorithm: a type with `storage` (holding a `T result` member) and the static block steps
//   T full(storage&, Op&, const T& item, int rank)                  every thread contributes
//   T partial(storage&, Op&, const T& item, int num_valid, int rank) threads [0, num_valid) do
// whose result is valid in rank 0.
template <class Algorithm, int BlockSize, class Op, class T>
class block_reduce_front {
  static_assert(BlockSize > 0 && BlockSize % 32 == 0 && BlockSize <= 1024,
                "BlockSize must be a multiple of 32 up to 1024");
  static_assert(std::is_trivially_copyable_v<T>,
                "a block reduction moves T through shared memory and shuffles");

 public:
  using storage = typename Algorithm::storage;

  /// Every thread of a block of BlockSize threads (any shape) constructs it; a block of another
  /// size stops the kernel (cudaErrorIllegalInstruction), in every build.
  __device__ explicit block_reduce_front(storage& s, Op op = Op{})
      : s_(s), op_(op), rank_(block_rank<BlockSize>()) {
    require_block_threads(BlockSize);
  }

  /// The reduction of every thread's `item`, valid in thread 0.
  __device__ T reduce(const T& item) { return Algorithm::full(s_, op_, item, rank_); }

  /// Each thread folds its own items first (in order), then the block reduces.
  template <int Items, class Item>
  __device__ T reduce(const Item (&items)[Items]) {
    return reduce(fold_in_order<T>(items, op_));
  }

  /// Only threads [0, num_valid) contribute (a partial tile); valid in thread 0. num_valid >= 1
  /// (values above BlockSize count as BlockSize).
  __device__ T reduce(const T& item, int num_valid) {
    return Algorithm::partial(s_, op_, item, num_valid < BlockSize ? num_valid : BlockSize, rank_);
  }

  /// The reduction of every thread's `item`, returned to every thread.
  __device__ T all_reduce(const T& item) { return broadcast(reduce(item)); }

  /// Partial-tile all-reduce: threads [0, num_valid) contribute, every thread gets the result.
  __device__ T all_reduce(const T& item, int num_valid) {
    return broadcast(reduce(item, num_valid));
  }

 private:
  __device__ T broadcast(const T& total) {
    if (rank_ == 0) {
      s_.result = total;
    }
    __syncthreads();
    return s_.result;
  }

  storage& s_;
  Op op_;
  int rank_;
};

}  // namespace gpuprims::detail
