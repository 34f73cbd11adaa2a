// Tuning of gpuprims::reduce: a plain policy, chosen by architecture. Pass your own selector (a
// type with the same static select) as the launcher's Tuning argument to override it.
//
// The shapes fix the order in which gpuprims::reduce combines elements (docs/reduce.md, "The
// order"): a selector that returns other shapes gives other floating-point bits. The library's
// selector returns the same policy for every architecture, so every GPU gives the same bits.
#pragma once

#include <gpuprims/config.cuh>

#include <cstddef>

namespace gpuprims {

/// One tile of the tiled reduction: `block_threads` threads each load `words_per_thread` 16-byte
/// words (all in flight before the first is added), and the block reduces the tile to one partial.
struct reduce_shape {
  int block_threads;     ///< threads per block: a multiple of 32 up to 1024
  int words_per_thread;  ///< 16-byte words per thread per tile (1 to 16)
};

/// How gpuprims::reduce cuts its input: tiles of the `small` shape for inputs of up to
/// `small_max_bytes`, of the `large` shape above (decided per pass, from that pass's input).
struct reduce_policy {
  reduce_shape small;
  reduce_shape large;
  std::size_t small_max_bytes;
  unsigned int max_blocks;  ///< blocks per launch at most (they loop over the tiles); 0: no limit
  bool dependent_launch;    ///< programmatic dependent launch where the code has it
  /// With dependent launch: a pass of at most this many tiles lets the next pass be scheduled as it
  /// starts (griddepcontrol.launch_dependents; the next still waits for its memory). 0: never.
  std::size_t early_next_pass_max_tiles;
};

/// The library's reduce policy for code built for `arch` (compute capability x 10): the same for
/// every architecture (the order, and with it the bits, must not depend on the GPU).
struct reduce_tuning {
  __host__ __device__ static constexpr reduce_policy select(int /*arch*/) {
    reduce_policy p{};
    // Up to 8 MiB: 256 threads x 8 words (32 KiB tiles): 2^20 floats are 128 tiles, one wave of
    // blocks on the GPUs we target, and the partials fit one tile of the second pass.
    p.small = {256, 8};
    // Above: 512 threads x 4 words (32 KiB tiles), one tile per block, the hardware's block
    // scheduler balancing the SMs. reduce_float/gpuprims::reduce_large_<shape>, one run on the
    // H100: 27.16 us at 2^24 floats and 345.3 at 2^28, against 27.21/345.3 (512 x 2), 27.23/347.7
    // (256 x 4), 27.39/347.6 (256 x 8), 27.90/345.6 (1024 x 4).
    p.large = {512, 4};
    p.small_max_bytes = std::size_t{8} << 20;
    p.max_blocks = 0;
    // Each pass's launch overlaps the end of the pass before it (docs/design.md).
    p.dependent_launch = true;
    // reduce_float/gpuprims::reduce_early_next_pass (4096) against gpuprims::reduce (0), same runs:
    // 26.58 against 27.53 and 27.54 us at 2^24 floats (2048 tiles); 2^28 (32768 tiles) unchanged,
    // where a grid of many blocks pays for the signal (notes/design.md).
    p.early_next_pass_max_tiles = 4096;
    return p;
  }
};

/// How gpuprims::reduce_rows gives rows to threads: a thread per row up to `thread_max_cols`
/// columns, a warp per row up to `warp_max_cols`, a block per row above; blocks of `block_threads`.
/// The choice depends on cols only, so each row's order is a function of cols (and the bits
/// repeat).
struct reduce_rows_policy {
  int block_threads;
  std::size_t thread_max_cols;
  std::size_t warp_max_cols;
  bool dependent_launch;
};

/// The library's reduce_rows policy for code built for `arch`: the same for every architecture.
struct reduce_rows_tuning {
  __host__ __device__ static constexpr reduce_rows_policy select(int /*arch*/) {
    // First values, not yet measured against one another: a row of up to 8 items is one thread's
    // fold (no shuffles), a warp folds rows up to 4096 (128 items a lane), a block the longer ones.
    return {256, 8, 4096, true};
  }
};

}  // namespace gpuprims
