// block_histogram: privatised counters in the caller's shared storage, filled by the block's
// threads and added to global bins once, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>
#include <gpuprims/detail/reduce/block_front.cuh>

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <type_traits>

namespace gpuprims {

/// A histogram of Bins counters in shared memory for a block of BlockSize threads (any shape).
/// init() zeroes it (every thread, then a barrier); add() counts one bin or an array of bins (any
/// thread, any number of times; a bin outside [0, Bins) is not counted); merge() adds the block's
/// counts to global bins (every thread: a barrier, then one atomic per nonzero bin). Counter: the
/// shared counters' type (unsigned int, or unsigned long long past 2^32 samples a block).
///
///   using hist_t = gpuprims::block_histogram<256, 64>;
///   __shared__ hist_t::storage s;
///   hist_t h(s);
///   h.init();
///   for (...) h.add(bin_of(sample));
///   h.merge(d_counts);
template <int BlockSize, int Bins, class Counter = unsigned int>
class block_histogram {
  static_assert(Bins > 0, "at least one bin");
  static_assert(std::is_integral_v<Counter> && (sizeof(Counter) == 4 || sizeof(Counter) == 8),
                "shared counters of 32 or 64 bits");

 public:
  struct storage {
    Counter bins[Bins];
  };

  __device__ explicit block_histogram(storage& s) : s_(s), rank_(detail::block_rank<BlockSize>()) {
    detail::require_block_threads(BlockSize);
  }

  /// Every thread: zero the counters, then a barrier.
  __device__ void init() {
    for (int b = rank_; b < Bins; b += BlockSize) {
      s_.bins[b] = 0;
    }
    __syncthreads();
  }

  /// Any thread: counts one sample in bin `bin` (not counted outside [0, Bins)).
  __device__ void add(int bin) {
    if (bin >= 0 && bin < Bins) {
      cuda::atomic_ref<Counter, cuda::thread_scope_block>(s_.bins[bin])
          .fetch_add(Counter{1}, cuda::memory_order_relaxed);
    }
  }

  /// Any thread: counts each of `bins`.
  template <int N>
  __device__ void add(const int (&bins)[N]) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
      add(bins[k]);
    }
  }

  /// Every thread: a barrier, then the block's nonzero counts added to global[0, Bins) with
  /// device-scope atomics (32- or 64-bit integers).
  template <class GlobalCounter>
  __device__ void merge(GlobalCounter* global) {
    static_assert(std::is_integral_v<GlobalCounter>, "integer counts");
    __syncthreads();
    for (int b = rank_; b < Bins; b += BlockSize) {
      const Counter c = s_.bins[b];
      if (c != 0) {
        cuda::atomic_ref<GlobalCounter, cuda::thread_scope_device>(global[b]).fetch_add(
            static_cast<GlobalCounter>(c), cuda::memory_order_relaxed);
      }
    }
  }

  /// Counter b of the block (after a barrier that follows the adds).
  __device__ Counter count(int b) const { return s_.bins[b]; }

 private:
  storage& s_;
  int rank_;
};

}  // namespace gpuprims
