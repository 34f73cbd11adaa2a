// block_segmented_reduce<BlockSize, Op>: several independent reductions in one block, over
// segments of consecutive threads, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>
#include <gpuprims/detail/reduce/block_front.cuh>
#include <gpuprims/detail/reduce/block_segmented.cuh>
#include <gpuprims/types.cuh>

#include <type_traits>

namespace gpuprims {

/// Reductions of segments of consecutive threads (in rank order) of a block of BlockSize threads
/// (a multiple of 32, up to 1024; any shape). A segment starts at thread 0 and at every thread
/// whose `starts_segment` is true; segments may have any length, so one block reduces one segment
/// or BlockSize of them. Each thread gets the fold of its segment from the segment's first thread
/// up to itself: the segment's reduction is in its last thread. Threads combine in rank order (a
/// tree of pairs, the same every run), so Op need only be associative. Ten shuffle steps and two
/// barriers whatever the segments; __syncthreads() before reusing the storage.
///
///   using seg_t = gpuprims::block_segmented_reduce<256, gpuprims::plus<float>>;
///   __shared__ seg_t::storage s;
///   float upto_me = seg_t(s).reduce(x, row_of(rank) != row_of(rank - 1));
template <int BlockSize, class Op, class T = typename Op::value_type>
class block_segmented_reduce {
  static_assert(std::is_trivially_copyable_v<T>,
                "a block reduction moves T through shared memory and shuffles");
  using scan = detail::block_segmented_scan<BlockSize, T>;

 public:
  using storage = typename scan::storage;

  /// Every thread of a block of BlockSize threads constructs it; a block of another size stops the
  /// kernel (cudaErrorIllegalInstruction), in every build.
  __device__ explicit block_segmented_reduce(storage& s, Op op = Op{})
      : s_(s), op_(op), rank_(detail::block_rank<BlockSize>()) {
    detail::require_block_threads(BlockSize);
  }

  /// The fold of this thread's segment from its first thread up to this thread.
  __device__ T reduce(const T& item, bool starts_segment) {
    bool seen = starts_segment || rank_ == 0;
    return scan::inclusive(s_, op_, item, seen, rank_);
  }

  /// Only threads [0, num_valid) hold items (a partial tile): the others return their item
  /// unchanged and take no part. num_valid >= 1.
  __device__ T reduce(const T& item, bool starts_segment, int num_valid) {
    // A thread past the end starts a segment of its own: nothing after it is valid to join it.
    return reduce(item, starts_segment || rank_ >= num_valid);
  }

 private:
  storage& s_;
  Op op_;
  int rank_;
};

}  // namespace gpuprims
