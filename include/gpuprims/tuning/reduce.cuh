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
  /// Where the pass after a pass of at most this many tiles would be the last (its partials fit
  /// one `small` tile), the pass's last block waits for the others' partials and reduces them
  /// itself: one launch fewer, the same bits. Passes of the `small` shape (those of the large one:
  /// large_pass_finishes_max_tiles), for accumulators that load as 16-byte words. 0: every pass is
  /// launched.
  std::size_t last_block_finishes_max_tiles = 0;
  /// With dependent launch: the pass that writes the result lets the stream's next kernel be
  /// scheduled as its blocks start (that kernel still waits for this one's memory, as every kernel
  /// launched dependent must).
  bool last_pass_signals = false;
  /// Where the next pass would be the last, a pass of the `large` shape of at most this many tiles
  /// (and at most a 16-byte word of partials for each thread of the large block: 2048 floats for
  /// 512 threads) has its last block finish too, for accumulators of up to 4 bytes only, and
  /// `large.block_threads` a multiple of `small.block_threads`: their partials travel packed with
  /// the marks, with no memory barrier in any block. 0: never.
  std::size_t large_pass_finishes_max_tiles = 0;
  /// Where a pass finishes in its last block, accumulators of up to 4 bytes travel in their tile's
  /// mark (32 bits of each), stored with no memory barrier, for passes of at most a 16-byte word
  /// of partials for each thread of the finishing block; false: every partial goes to its own
  /// buffer and its mark is released after it (the only way for larger accumulators). The bits are
  /// the same either way; docs/reduce.md, "The workspace", says what the packed marks cost.
  bool partials_in_marks = true;
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
    // One launch up to 2^21 floats instead of two. reduce_float, one run on the H100 (limit 0 /
    // 256 / 8192, us): 2^16 7.0-7.3 / 4.3-4.5 / 4.2; 2^20 7.2-8.3 / 5.3-5.8 / 5.2-5.6; 2^21 (256
    // tiles) 6.8-7.0 / 6.4 / 6.3-6.4; 2^22 (512) 7.6-7.8 / - / 9.0-9.4; 2^23 11.3 / - / 13.3:
    // past a wave of blocks, every block's release of its mark costs more than the launch saved.
    p.last_block_finishes_max_tiles = 256;
    // The pass that writes the result lets the next kernel in as it starts (in a batch of calls,
    // the next call's first pass). Measured as a variant against the default without it, one
    // binary, 3 runs on the H100 (2026-11-27), us: 25.89-26.18 against 26.39-26.52 at 2^24 floats,
    // 4.96-4.98 against 5.00-5.02 at 2^20; 2^28 and 2^30 within the runs' spread. The benchmark
    // keeps the old default as reduce_float/gpuprims::reduce_last_pass_waits. The last 1024 or 4096
    // blocks of the larger passes signalling the same way bought nothing at 2^28 (notes/reduce.md).
    p.last_pass_signals = true;
    // A finishing pass's 4-byte partials travel in their marks, with no memory barrier in any
    // block. reduce_float/gpuprims::reduce_unpacked_marks (false) against the default, one binary,
    // 3 runs on the H100 (2026-11-27), us: 4.94-4.97 against 3.59-4.11 at 2^20 floats, 5.82-6.00
    // against 4.34-4.41 at 2^21; 2^16 and 2^24 to 2^30 within the runs' spread.
    p.partials_in_marks = true;
    // Large passes of up to 2048 tiles (2^24 floats) finish in their last block too, which the
    // packed partials make cheap (no block waits on a barrier): one launch up to 2^24 floats.
    // reduce_float/gpuprims::reduce_large_pass_launched (0) was the default; same runs, us:
    // 5.79-5.82 against 6.14-7.91 at 2^22, 8.29-8.31 against 8.75-8.80 at 2^23, 25.93-25.98 against
    // 26.17-26.56 at 2^24; 2^28 and 2^30 within the runs' spread.
    p.large_pass_finishes_max_tiles = 2048;
    return p;
  }
};

/// How gpuprims::reduce_rows gives rows to threads: a thread per row up to `thread_max_cols`
/// columns, a warp per row up to `warp_max_cols`, a block per row above, blocks of
/// `block_threads`; rows that share their alignment in groups of lanes or in tiles, and long
/// unpadded ones in segmented_reduce's walk (below). The choice depends on cols, the pitch and the
/// input's alignment, so each row's order does too (the walk's also on rows), and the bits repeat
/// on every GPU.
struct reduce_rows_policy {
  int block_threads;
  std::size_t thread_max_cols;
  std::size_t warp_max_cols;
  /// Rows without padding (pitch == cols) of at least this many columns go to segmented_reduce's
  /// walk instead, which spreads a few long rows over every SM; padded rows stay a block per row.
  std::size_t walk_min_cols;
  bool dependent_launch;
  /// Rows of at least this many columns that all start at the same 16-byte alignment (the pitch a
  /// whole number of 16-byte words, or items loaded one by one) are cut into tiles of
  /// `long_row_tile` as gpuprims::reduce cuts an input, one block a tile, and a second launch
  /// folds each row's partials: rows, padded or not, reduce at the device-wide reduce's speed
  /// (before segmented_reduce's walk, which still takes the rows this does not). 0: never.
  std::size_t tiles_min_cols = 0;
  reduce_shape long_row_tile = {512, 4};
  /// Rows of groups_min_cols to groups_max_cols columns that share that alignment, of items that
  /// pack into 16-byte words, go to groups of lanes instead of a warp or a block: a power of two of
  /// lanes per row (up to 32, each lane at least `group_words` of the row's 16-byte words where
  /// the row has them), several rows a warp. groups_max_cols 0: never.
  std::size_t groups_min_cols = 0;
  std::size_t groups_max_cols = 0;
  int group_words = 4;
  /// Packed rows (pitch == cols, the input from a 16-byte boundary) of at most this many items,
  /// read as 16-byte words in tiles of block_threads x `packed_words` (each warp load one
  /// contiguous 512-byte span):
  ///  - rows that divide a word (the output aligned to one word's results): a thread folds each
  ///    row of its word in column order and stores the word's results together, the same bits as
  ///    a thread a row;
  ///  - rows of 2 to 32 words (a power of two): a lane a word, its items in order, then a shuffle
  ///    tree over the row's lanes (an order of its own, a function of cols).
  /// 0: never (and where a selector returns 0 for every architecture, its launchers do not even
  /// build the packed kernels). The library's policy: 512 (every row that packs).
  std::size_t packed_max_cols = 0;
  int packed_words = 4;
};

/// The library's reduce_rows policy for code built for `arch`: the same for every architecture.
struct reduce_rows_tuning {
  __host__ __device__ static constexpr reduce_rows_policy select(int /*arch*/) {
    // A row of up to 8 items is one thread's fold (no shuffles), a warp folds rows up to 4096
    // (128 items a lane), a block the longer ones: first values, not measured against one another.
    // From 16384 columns the walk: batched_float, 2^28 floats, one run on the H100: at 32768
    // columns the walk took 382 us against 475 for a block per row, at 2^20 381 against 1622 (256
    // rows: 256 blocks); at 1024 a warp per row 500 against 1999 (the crossing, between 1024 and
    // 32768, is not measured more finely).
    reduce_rows_policy p{256, 8, 4096, 16384, true};
    // Rows whose starts share an alignment: tiles of 512 threads x 4 words (the device-wide
    // reduce's large shape). batched_float / rows_float_pitched, 2^28 floats, one run
    // on the H100, us at 16384 / 32768 / 2^20 columns: tiles 344.6 / 344.4 / 345.7 unpadded (the
    // walk 382.8 / 380.0 / 374.1), 345.4 / 345.5 / 346.4 padded (a block per row 475.8 / 475.4 /
    // 1618.7); tiles of 256 x 8 347.3 / 347.4 / 348.2, 512 x 8 346.0 / 345.8 / 346.2, 1024 x 4
    // 455.6 / 455.1 / 455.4 (unpadded).
    // From 4096 columns (tiles_from_4096 against the default then, one run: 344.5 / 344.0 us at
    // 4096 / 8192 columns against groups' 356.7 / 355.5; CUB 349.0 / 349.5).
    p.tiles_min_cols = 4096;
    p.long_row_tile = {512, 4};
    // From 9 columns to 4095, rows whose starts share an alignment: groups of lanes, each at least
    // 4 words. batched_float, one run on the H100, us at 16 / 32 / 64 / 128 / 256 / 1024 / 4096 /
    // 8192 columns: 380.9 / 405.2 / 369.7 / 357.3 / 351.5 / 349.5 / 356.0 / 362.8, against a warp
    // or a block per row 1822.9 / 876.8 / 504.6 / 475.2 / 484.3 / 499.9 / 487.3 / 477.6; at least 1
    // word a lane 679.1 / 706.5 / 734.8 / 761.7 / 465.7 / 347.2 / 351.8 / 356.4, 2 words 428.7 /
    // 459.7 / 460.7 / 453.1 / 475.5 / 353.8 / 354.0 / 357.2, 8 words 381.8 / 437.9 / 427.7 / 367.5
    // / 353.0 / 348.0 / 352.0 / 359.2.
    p.groups_min_cols = 9;
    p.groups_max_cols = 4095;
    // Packed rows first, wherever they apply (rows of up to 32 words; the kernels' loads depend
    // on words, not items). batched_float, 2^28 floats, two runs of one binary on the H100
    // (2026-11-27, medians), us at 1 / 2 / 4 / 8 / 16 / 32 / 64 / 128 columns: packed 722-728 /
    // 535-538 / 438-440 / 397-398 / 380 / 370-371 / 364-365 / 359-360, against the paths above
    // 919-920 / 583-587 / 440-441 / 404-405 / 378-379 / 408-409 / 367-369 / 358-360 (the copy
    // 718-724). A second call, the default against packed rows off: 738-740 us at 1 column against
    // 916-917, the others within 1% of the first.
    p.packed_max_cols = 512;
    return p;
  }
};

/// How gpuprims::segmented_reduce spreads its work: the segments' ends and the items merged into
/// one sequence (merge path), cut into equal ranges, one per warp of `blocks` blocks of
/// `block_threads` threads (a walker), each read in groups of 32 lanes x `words_per_lane`
/// consecutive 16-byte words; the walkers' partial results meet in one more block,
/// `fixup_items_per_thread` records per thread at a time. The order of every combination is a
/// function of the offsets, the input's alignment and these numbers only (not of the GPU), so the
/// bits repeat.
struct segmented_reduce_policy {
  int block_threads;  ///< a multiple of 32 up to 1024
  unsigned int blocks;
  int words_per_lane;  ///< consecutive 16-byte words per lane and group (1 to 8)
  int fixup_items_per_thread;
  int min_blocks_per_sm;  ///< __launch_bounds__' minimum: caps the first pass's registers
  bool dependent_launch;
  /// A group in which at most this many segments end (0 to 31) closes them one after the other,
  /// each by masked folds over the lanes' items and one fold across the lanes, instead of
  /// scattering its ends into shared memory and scanning runs across the lanes (0: always the
  /// scan).
  int few_ends = 2;
  /// Where the segments average at least a group of items, each walker's share of the merged
  /// sequence is rounded up to an odd multiple of this many steps (0: never). The walkers read in
  /// step; shares of 2^k items would put their streams a power of two bytes apart.
  unsigned int range_unit = 0;
};

/// The library's segmented_reduce policy for code built for `arch`: the same for every
/// architecture.
struct segmented_reduce_tuning {
  __host__ __device__ static constexpr segmented_reduce_policy select(int /*arch*/) {
    // 512 blocks of 256 threads: 4096 walkers (8190 records for the second pass, two chunks of
    // 256 x 16); groups of 32 x 4 words (512 floats); registers capped for two blocks an SM.
    // segmented_float --full, one run on the H100, us at lengths 1 / 32 / 1024 / 32768 / 2^20:
    // this policy 4400 / 704 / 522 / 382 / 375; 1024 blocks 4467 / 726 / 543 / 395 / 389; one
    // word a lane 4134 / 1792 / 744 / 595 / 590, two 4016 / 1091 / 571 / 416 / 409, eight 5854 /
    // 617 / 638 / 426 / 420; a cap of three blocks an SM (it spills) 5405 / 789 / 574 / 489 / 483.
    // Groups of up to two ends close them one by one (few_ends): the same benchmark, two runs on
    // the H100 (2026-11-28), us at lengths 256 / 512 / 1024 / 2048 and random mean 1024, against
    // every group scanned: 711-715 / 441-445 / 389-390 / 381-385 / 399-404 against 730-734 /
    // 735-739 / 521 / 413-415 / 499-511; up to one 735-741 at 256; up to four 1159-1164 at 128
    // (against 711-714), up to eight 1837-1844 at 64 (against 707-712). With each piece of a
    // lane's items folded as a tree (two runs on an H200, 2026-11-28): up to four 1003-1004 us at
    // 128 (against 719-722), eight 1652-1658 at 64 (against 712-713), one 739-740 at 256
    // (against 591-595).
    // Shares rounded to odd multiples of 16 steps (range_unit): one binary, two runs on an H200
    // (2026-11-28), us at lengths 1024 / 2048 / 8192 / 32768 / 2^20, against shares not rounded:
    // 311 / 280 / 276-277 / 273-274 / 268-270 against 316-321 / 290-296 / 283-289 / 281-283 /
    // 277; 256, 512 and 4096 within the runs' spread.
    return {256, 512, 4, 16, 2, true, 2, 16};
  }
};

/// How gpuprims::reduce_cols reads a row-major matrix: blocks of `block_threads` threads, each warp
/// over `width` consecutive columns (the least power of two >= cols, at most 32) and 32 / width
/// rows at a time; a block takes a chunk of rows, sized from rows and cols only (so the bits
/// repeat on every GPU) to give about `target_blocks` blocks and at least `min_chunk_rows` rows
/// each. A pass leaves one partial per chunk and column; passes repeat until one chunk is left.
struct reduce_cols_policy {
  int block_threads;
  std::size_t target_blocks;
  std::size_t min_chunk_rows;
  int loads_in_flight;  ///< rows a thread loads before it folds them (1 to 16)
  bool dependent_launch;
};

/// The library's reduce_cols policy for code built for `arch`: the same for every architecture.
struct reduce_cols_tuning {
  __host__ __device__ static constexpr reduce_cols_policy select(int /*arch*/) {
    // 2048 blocks: over ten per SM on the GPUs we target; chunks of at least 256 rows (the second
    // pass over 2048 partials is one more short launch). First values, measured in
    // docs/reduce.md's columns table.
    return {256, 2048, 256, 4, true};
  }
};

}  // namespace gpuprims
