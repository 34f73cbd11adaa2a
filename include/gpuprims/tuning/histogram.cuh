// Tuning of gpuprims' device histograms: a plain policy, chosen by architecture. Pass your own
// selector (a type with the same static select) as the launcher's Tuning argument to override it.
#pragma once

#include <gpuprims/config.cuh>

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
};

/// The library's histogram policy for code built for `arch`.
struct histogram_tuning {
  __host__ __device__ static constexpr histogram_policy select(int /*arch*/) {
    // 256 threads, 8 blocks an SM, 2048 shared counters (8 KiB) for small histograms and 8192
    // (32 KiB) up to 8192 bins, up to 8 copies, 16-byte loads, no aggregation: on an H100 as fast
    // as the best rung for uint8 / 256 bins and float / 1024 bins (docs/histogram.md, where
    // aggregation lost 9x on uniform data and a 32-copy layout lost 2x).
    return {256, 8, 2048, 8192, 8, true, false};
  }
};

}  // namespace gpuprims
