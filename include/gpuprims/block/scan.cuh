// block_scan<BlockSize, Op>: a prefix scan over the threads of a block, in the shape of
// cub::BlockScan and gpuprims::block_reduce, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>
#include <gpuprims/detail/reduce/block_front.cuh>
#include <gpuprims/detail/scan/block_warp_shuffle.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <type_traits>

namespace gpuprims {

/// How block_scan combines across the block. (The shared-memory scans of the lecture notes,
/// Hillis-Steele and Blelloch, are rungs of the ladder: gpuprims::ladder::block_scan.)
enum class block_scan_algorithm {
  /// A Kogge-Stone scan in each warp by shuffles, one shared slot per warp, one barrier, then each
  /// thread folds the earlier warps' totals: no shared-memory tree. Op need only be associative.
  warp_shuffle,
};

namespace detail {
template <block_scan_algorithm Algorithm, int BlockSize, class T>
struct block_scan_algorithm_of {
  using type = block_scan_warp_shuffle<BlockSize, T>;
};
}  // namespace detail

/// A block-wide prefix scan for blocks of BlockSize threads (a multiple of 32, up to 1024), one-,
/// two- or three-dimensional, threads ranked row-major. Op combines two T (items of another type
/// convert on entry) and need only be associative: items combine in thread order, each thread's
/// array in index order, with a fixed association, so the bits repeat. Declare the storage in
/// shared memory, construct with it, and call one method from every thread of the block;
/// __syncthreads() before reusing the storage.
///
///   inclusive_scan(item[, aggregate])           thread i: x[0] op ... op x[i]
///   inclusive_scan(item, aggregate, num_valid)  a partial tile: the aggregate of threads <
///   num_valid exclusive_scan(item, init[, aggregate])     thread i: init op x[0] op ... op x[i -
///   1] inclusive_scan(items, out[, aggregate])     an array per thread (blocked: thread t holds
///   exclusive_scan(items, out, init[, aggr.])   items t * N .. t * N + N - 1)
///   inclusive_scan_with_prefix(items, out, prefix_op)  a running prefix: thread 0 calls
///   exclusive_scan_with_prefix(items, out, prefix_op)  prefix_op(aggregate), whose T result
///                                                      comes before every item of the block
///
/// Aggregates exclude init and are returned to every thread.
///
///   using scan_t = gpuprims::block_scan<256, gpuprims::plus<int>>;
///   __shared__ scan_t::storage s;
///   const int offset = scan_t(s).exclusive_scan(count, 0);
template <int BlockSize, class Op, class T = typename Op::value_type,
          block_scan_algorithm Algorithm = block_scan_algorithm::warp_shuffle>
class block_scan {
  static_assert(BlockSize > 0 && BlockSize % 32 == 0 && BlockSize <= 1024,
                "BlockSize must be a multiple of 32 up to 1024");
  static_assert(std::is_trivially_copyable_v<T>, "a block scan moves T through shared memory");
  using algorithm = typename detail::block_scan_algorithm_of<Algorithm, BlockSize, T>::type;

 public:
  using storage = typename algorithm::storage;

  /// Every thread of a block of BlockSize threads constructs it; a block of another size stops the
  /// kernel (cudaErrorIllegalInstruction), in every build.
  __device__ explicit block_scan(storage& s, Op op = Op{})
      : s_(s), op_(op), rank_(detail::block_rank<BlockSize>()) {
    detail::require_block_threads(BlockSize);
  }

  __device__ T inclusive_scan(const T& item) {
    return algorithm::scan(s_, op_, item, rank_).inclusive;
  }

  __device__ T inclusive_scan(const T& item, T& aggregate) {
    const T inclusive = inclusive_scan(item);
    aggregate = algorithm::total(s_, op_);
    return inclusive;
  }

  /// A partial tile: outputs of threads [0, num_valid) are those of a scan of their items alone (a
  /// scan never looks forward), and `aggregate` is the fold of their items. num_valid from 1 to
  /// BlockSize.
  __device__ T inclusive_scan(const T& item, T& aggregate, int num_valid) {
    const T inclusive = inclusive_scan(item);
    if (rank_ == (num_valid < BlockSize ? num_valid : BlockSize) - 1) {
      s_.slot = inclusive;
    }
    __syncthreads();
    aggregate = s_.slot;
    return inclusive;
  }

  __device__ T exclusive_scan(const T& item, const T& init) {
    const auto parts = algorithm::scan(s_, op_, item, rank_);
    return parts.before.has ? op_(init, parts.before.value) : init;
  }

  __device__ T exclusive_scan(const T& item, const T& init, T& aggregate) {
    const T exclusive = exclusive_scan(item, init);
    aggregate = algorithm::total(s_, op_);
    return exclusive;
  }

  template <int Items, class Item>
  __device__ void inclusive_scan(const Item (&items)[Items], T (&out)[Items]) {
    T aggregate;
    inclusive_scan(items, out, aggregate);
  }

  template <int Items, class Item>
  __device__ void inclusive_scan(const Item (&items)[Items], T (&out)[Items], T& aggregate) {
    const auto parts = algorithm::scan(s_, op_, detail::fold_in_order<T>(items, op_), rank_);
    aggregate = algorithm::total(s_, op_);
    rescan(items, out, parts.before, false);
  }

  template <int Items, class Item>
  __device__ void exclusive_scan(const Item (&items)[Items], T (&out)[Items], const T& init) {
    T aggregate;
    exclusive_scan(items, out, init, aggregate);
  }

  template <int Items, class Item>
  __device__ void exclusive_scan(const Item (&items)[Items], T (&out)[Items], const T& init,
                                 T& aggregate) {
    const auto parts = algorithm::scan(s_, op_, detail::fold_in_order<T>(items, op_), rank_);
    aggregate = algorithm::total(s_, op_);
    rescan(items, out, {parts.before.has ? op_(init, parts.before.value) : init, true}, true);
  }

  /// Thread 0 calls prefix_op(aggregate) (the fold of this block's items) and its result comes
  /// before every item: the way a block scans many tiles in a loop (prefix_op keeps the running
  /// total) or joins a grid-wide scan (gpuprims::lookback).
  template <int Items, class Item, class PrefixOp>
  __device__ void inclusive_scan_with_prefix(const Item (&items)[Items], T (&out)[Items],
                                             PrefixOp& prefix_op) {
    const auto parts = algorithm::scan(s_, op_, detail::fold_in_order<T>(items, op_), rank_);
    rescan(items, out, with_prefix(parts.before, prefix_op), false);
  }

  template <int Items, class Item, class PrefixOp>
  __device__ void exclusive_scan_with_prefix(const Item (&items)[Items], T (&out)[Items],
                                             PrefixOp& prefix_op) {
    const auto parts = algorithm::scan(s_, op_, detail::fold_in_order<T>(items, op_), rank_);
    rescan(items, out, with_prefix(parts.before, prefix_op), true);
  }

 private:
  // prefix_op(aggregate) from thread 0, through the shared slot, before this thread's `before`.
  template <class PrefixOp>
  __device__ detail::maybe<T> with_prefix(const detail::maybe<T>& before, PrefixOp& prefix_op) {
    if (rank_ == 0) {
      s_.slot = prefix_op(algorithm::total(s_, op_));
    }
    __syncthreads();
    const T prefix = s_.slot;
    return {before.has ? op_(prefix, before.value) : prefix, true};
  }

  // out[i] = before op items[0] op ... op items[i] (inclusive) or before op items[0 .. i - 1]
  // (exclusive, where `before` is present).
  template <int Items, class Item>
  __device__ void rescan(const Item (&items)[Items], T (&out)[Items], detail::maybe<T> before,
                         bool exclusive) {
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const T x = static_cast<T>(items[i]);
      if (exclusive) {
        out[i] = before.value;
        before.value = op_(before.value, x);
      } else {
        before = {detail::fold_after(before, x, op_), true};
        out[i] = before.value;
      }
    }
  }

  storage& s_;
  Op op_;
  int rank_;
};

}  // namespace gpuprims
