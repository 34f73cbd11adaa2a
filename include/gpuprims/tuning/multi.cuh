// Tuning of gpuprims::multi::all_reduce: a plain policy, chosen by architecture. Pass your own
// selector (a type with the same static select) as the launcher's Tuning argument to override it.
// The policy never changes the result's bits (each element is folded in rank order whatever the
// segments), only the pipeline's grain.
#pragma once

#include <gpuprims/config.cuh>

#include <cstddef>

namespace gpuprims {

/// How gpuprims::multi::all_reduce pipelines: each rank's chunk (count / ranks elements) travels
/// in segments of `segment_bytes`; a segment's fold runs while the next one travels, and the
/// workspace holds two segments from every other rank. The fold kernel runs blocks_per_sm blocks
/// of `fold_threads` threads an SM (a grid-stride loop).
struct all_reduce_policy {
  std::size_t segment_bytes;
  int fold_threads;
  int fold_blocks_per_sm;
  /// Two ranks summing a type NCCL sums: call ncclAllReduce (each element is one addition of two
  /// values whatever NCCL's algorithm, so the bits are the rank-order fold's).
  bool two_rank_sums_by_nccl = true;
};

struct all_reduce_tuning {
  __host__ __device__ static constexpr all_reduce_policy select(int /*arch*/) {
    // 128 MiB segments: on 2 H200s (NVLink, one run, 256 MiB of floats, the point-to-point path)
    // 1157 us against 1335 with 32 MiB and 1912 with 8 MiB segments (ncclAllReduce 899): each
    // segment's grouped sends cost more than its fold's overlap saves. Two ranks summing: NCCL.
    return {std::size_t{128} << 20, 256, 4, true};
  }
};

}  // namespace gpuprims
