// Tuning of gpuprims' device histograms: a plain policy, chosen by architecture. Pass your own
// selector (a type with the same static select) as the launcher's Tuning argument to override it.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>

namespace gpuprims {

/// How the device histograms run. Up to `shared_bins` bins every block counts into its own copies
/// in shared memory (32-bit counters) and adds them to the output once at its end (a kernel of
/// `small_shared_bins` counters where copies x bins fit there, so that small histograms keep many
/// blocks an SM); more bins go straight to the output with global atomics. Each block walks the
/// samples grid-stride in 16-byte words (`vector_loads`), `copies` sub-histograms a block (warp w
/// counts into copy w % copies, fewer when the bins do not fit that often) spread the atomics of
/// skewed data, and `warp_aggregate` merges a warp's equal bins (__match_any_sync) into one update
/// before it.
struct histogram_policy {
  int block_threads;      ///< a multiple of 32 up to 1024
  int blocks_per_sm;      ///< the grid: this many blocks an SM (more when n needs it, below)
  int small_shared_bins;  ///< shared counters of the small-histogram kernel
  int shared_bins;        ///< shared counters of the large one: the most bins kept in shared memory
  int copies;             ///< sub-histograms a block, at most
  bool vector_loads;      ///< 16-byte loads (a scalar head up to the first aligned word)
  bool warp_aggregate;    ///< one update per distinct bin in a warp
  /// 8-bit samples of histogram_even and histogram_range: count the 256 sample values instead of
  /// the bins (32 copies a block, one a lane: a warp's atomics fall in 32 different banks) and
  /// map each value to its bin once a block, at its end; blocks of byte_block_threads threads,
  /// byte_blocks_per_sm of them an SM, byte_words 16-byte words a lane in flight.
  bool byte_values;
  int byte_block_threads;
  int byte_blocks_per_sm;
  int byte_words;
};

/// The library's histogram policy for code built for `arch`.
struct histogram_tuning {
  __host__ __device__ static constexpr histogram_policy select(int arch) {
    // 256 threads, 8 blocks an SM, 2048 shared counters (8 KiB) for small histograms and 8192
    // (32 KiB) up to 8192 bins, up to 8 copies, 16-byte loads, no aggregation: on an H100 as fast
    // as the best rung for float / 1024 bins (docs/histogram.md, where aggregation lost 9x on
    // uniform data).
    // 8-bit samples count their values in 32 lane copies (32 KiB a block), 512-thread blocks with
    // two 16-byte words a lane: on an H100 (1 GiB, 256 bins, one run of an experiment) 2994 GB/s
    // uniform and 2976 all equal, against 2327 and 2962 for 8 warp copies of the values and 1163
    // and 1889 for bins looked up in a table (CUB: 2109 and 2727). As many blocks as the SM's
    // threads and shared memory hold (33 KiB each with the driver's reserve): 4 on an H100.
    histogram_policy p{256, 8, 2048, 8192, 8, true, false, true, 512, 1, 2};
    const detail::arch::limits l = detail::arch::limits_of(arch);
    const int by_threads = l.max_threads_per_sm / p.byte_block_threads;
    const int by_shared = l.shared_bytes_per_sm / (33 * 1024);
    const int blocks = by_threads < by_shared ? by_threads : by_shared;
    p.byte_blocks_per_sm = blocks > 1 ? blocks : 1;
    return p;
  }
};

}  // namespace gpuprims
