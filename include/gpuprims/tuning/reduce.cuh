// Tuning of gpuprims::reduce: a plain policy, chosen by architecture. Pass your own selector (a
// type with the same static select) as the launcher's Tuning argument to override it.
#pragma once

#include <gpuprims/config.cuh>

#include <cstddef>

namespace gpuprims {

/// One launch shape of the single-pass reduction.
struct reduce_shape {
  int block_threads;  ///< threads per block
  int unroll;         ///< 16-byte loads in flight per thread
  int waves;          ///< grid: at most this many waves of resident blocks
};

/// How gpuprims::reduce shapes its single pass: `small` up to `small_max_bytes` of input, `large`
/// above.
struct reduce_policy {
  reduce_shape small;
  reduce_shape large;
  std::size_t small_max_bytes;
  bool dependent_launch;  ///< programmatic dependent launch where the code has it
};

/// The library's reduce policy for code built for `arch` (compute capability x 10). The same shapes
/// for every architecture: the grid comes from the device's resident threads at run time, and every
/// loaded word is 16 bytes whatever the element size.
struct reduce_tuning {
  __host__ __device__ static constexpr reduce_policy select(int /*arch*/) {
    reduce_policy p{};
    // reduce_float/gpuprims::reduce at 2^20 floats on the H100: 256 x 8 x 1 wave, 5.06 us, the best
    // of six shapes (fewer, fuller blocks start sooner; notes/reduce.md).
    p.small = {256, 8, 1};
    // ... at 2^24 and 2^28: 1024 x 4 x 1 wave, 28.2 and 355 us, the best of six (fewer partials for
    // the last block; the first version, 256 x 4 x 2 waves, took 29.7 and 360.8).
    p.large = {1024, 4, 1};
    // Between the two sizes measured (8 MiB: 2^21 floats).
    p.small_max_bytes = std::size_t{8} << 20;
    // reduce_float/gpuprims::reduce against gpuprims::reduce_plain_launch: 4.17 vs 5.23 us at 2^20,
    // 27.1 vs 28.3 at 2^24 (docs/design.md).
    p.dependent_launch = true;
    return p;
  }
};

}  // namespace gpuprims
