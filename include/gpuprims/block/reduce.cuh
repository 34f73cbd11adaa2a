// block_reduce<BlockSize, Op>: a reduction over the threads of a block, in the shape of
// cub::BlockReduce, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/reduce/block_front.cuh>
#include <gpuprims/detail/reduce/block_warp_shuffle.cuh>
#include <gpuprims/types.cuh>

namespace gpuprims {

/// How block_reduce combines across the block. (The reference notes' shared-memory trees,
/// reduce0-reduce5, are rungs of the ladder: gpuprims::ladder::block_reduce.)
enum class block_reduce_algorithm {
  /// Five shuffles within each warp, one shared slot per warp, one barrier, then the warp partials:
  /// no shared-memory tree, no idle half of the block per step. Op need only be associative (items
  /// combine in thread order). Shuffles move T as 32-bit words: a T of w words costs w shuffles a
  /// step.
  warp_shuffle,
};

namespace detail {
template <block_reduce_algorithm Algorithm, int BlockSize, class T>
struct block_reduce_algorithm_of {
  using type = block_reduce_warp_shuffle<BlockSize, T>;
};
}  // namespace detail

/// A block-wide reduction for blocks of BlockSize threads (a multiple of 32, up to 1024), one-,
/// two- or three-dimensional. Op combines two T (the accumulator type: items of another type, such
/// as __half into float, are converted on entry). Items combine in thread order, each thread's
/// array in index order, so Op need only be associative. Declare the storage in shared memory,
/// construct with it, and call one method from every thread of the block; results are valid in
/// thread 0 (all_reduce: in every thread). __syncthreads() before reusing the storage.
///
///   reduce(item)               every thread's item
///   reduce(items)              each thread's array, folded in order first
///   reduce(item, num_valid)    a partial tile: threads [0, num_valid)
///   all_reduce(item[, num_valid])  the result in every thread
///
///   using reduce_t = gpuprims::block_reduce<256, gpuprims::plus<float>>;
///   __shared__ reduce_t::storage s;
///   float total = reduce_t(s).reduce(x);   // thread 0 has the block's sum
template <int BlockSize, class Op, class T = typename Op::value_type,
          block_reduce_algorithm Algorithm = block_reduce_algorithm::warp_shuffle>
class block_reduce : public detail::block_reduce_front<
                         typename detail::block_reduce_algorithm_of<Algorithm, BlockSize, T>::type,
                         BlockSize, Op, T> {
 public:
  using detail::block_reduce_front<
      typename detail::block_reduce_algorithm_of<Algorithm, BlockSize, T>::type, BlockSize, Op,
      T>::block_reduce_front;
};

}  // namespace gpuprims
