// Tuning of gpuprims' device-wide scans: a plain policy, chosen by architecture. Pass your own
// selector (a type with the same static select) as the launcher's Tuning argument to override it.
//
// The tile size fixes the order in which a scan combines items (docs/scan.md, "The order"): the
// library's selector returns the same tile shape for every architecture (only where a tile waits,
// registers or shared memory, differs, and that does not change the order), so every GPU gives the
// same bits.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>

#include <cstddef>

namespace gpuprims {

/// One tile of the single-pass scan: `block_threads` threads, each scanning `items_per_thread`
/// items of 4 bytes (proportionally fewer for wider items or results, at least one 16-byte word),
/// loaded as 16-byte words, all in flight before the first is used; a block per tile. Inputs of at
/// most `small_max_items` items take `small_items_per_thread` instead (0: one shape for every n):
/// short scans want many small tiles, long ones few large ones. Either way the shape, and so the
/// order of the combinations, is a function of n.
struct scan_policy {
  int block_threads;      ///< a multiple of 32 up to 1024
  int items_per_thread;   ///< counted in 4-byte items
  int min_blocks_per_sm;  ///< __launch_bounds__' minimum: caps the registers, raises residency
  bool dependent_launch;
  int small_items_per_thread = 0;   ///< the shape for short inputs (0: none)
  std::size_t small_max_items = 0;  ///< the longest input that takes it
  /// Whether a tile waits for its prefix in shared memory (copied there in the background, by
  /// cp.async where the GPU has it) rather than in registers: fewer registers, more tiles resident
  /// and more bytes in flight per SM. The order of the combinations is the same either way.
  bool staged = false;
  /// min_blocks_per_sm for the kernels that load item by item (input or output not 16-byte
  /// aligned, items that do not pack into 16-byte words); 0: the same. They need more registers.
  int item_min_blocks_per_sm = 0;
  /// `staged` for the small-input shape (a short scan has few tiles in flight: what staging saves
  /// in registers buys nothing there, and its second pass over shared memory costs).
  bool small_staged = false;
  /// How many of a staged tile's words per lane (large shape) keep their `before` (the fold of
  /// everything before the word in its warp) in registers while the tile waits; the others keep
  /// it in shared memory. More in registers: less shared memory a tile, but more registers.
  int staged_before_registers = 0;
  /// Large shape, 16-byte words: each tile asks the L2 for the input of the tile this many tiles
  /// after it (0: none), so that tile's loads find it there.
  int prefetch_tiles = 0;
  /// Whether tiles prefetch for the tiles of the grid's first wave too (multiprocessors x
  /// min_blocks_per_sm tiles, resident from the start, which load their input themselves). False
  /// (the library's policies): only for tiles past it. True: every tile prefetches (the library's
  /// only behaviour before 2026-11-27).
  bool prefetch_first_wave = false;
  /// Large shape, 16-byte words: the results stored evict-first (st.global.cs), so that they leave
  /// the L2 before the input that the prefetch brought there ahead of its tiles. A kernel that
  /// reads the output right after finds less of it in the L2.
  bool streaming_stores = false;
};

/// The library's scan policy for code built for `arch`: one tile shape for every architecture (so
/// every GPU gives the same bits); the tiles wait in shared memory where eight fit in an SM's.
struct scan_tuning {
  __host__ __device__ static constexpr scan_policy select(int arch) {
    // 256 threads x 24 items (6144 floats: 24 KiB), up to 2^21 items 256 x 8. Staged at 8 blocks
    // an SM (32 registers; the item-by-item kernels 6 blocks, 40 registers: at 32 ptxas spills in
    // some), the first 3 of a lane's 6 words keeping `before` in registers and the other 3 in
    // shared memory (3 KiB), so that eight tiles fit in an SM. One run on the H100 (docs/scan.md),
    // us at 2^28 floats: this 953-960; 256 x 20 with `before` in shared memory (the default
    // before) 1001, with 2 or 5 words in registers 993-997; 256 x 24 with 4 or 6 words in
    // registers 951-956 (ptxas spills with 6 in exclusive float, with 4 in uint max); CUB 878-880,
    // a copy 718-719. The small shape keeps its tiles in registers: staged it was 3-7% slower at
    // 2^16-2^20 (5.23 / 8.07-8.24 us against 4.88-4.92 / 7.79-7.81 in registers). GPUs with less
    // shared memory keep every tile in registers (not measured there).
    // Items, `before` of 3 words, the block's other shared memory (under 512 bytes), the reserved
    // 1 KiB.
    constexpr int tile_bytes = 256 * 24 * 4 + 256 * 3 * 4 + 512 + 1024;
    // Each tile asks the L2 for the input of the tile 128 after it (3 MiB ahead): a tile waiting
    // for its prefix holds its slot, so fewer bytes are in flight than the data alone would allow;
    // the L2 holds them instead. H100, one binary, two runs (twenty-seventh session), us at 2^28 /
    // 2^30 floats: 873-876 / 3431-3434 against 955-957 / 3766-3772 without (CUB 879-887 /
    // 3470-3477); ints 879-884 / 3457-3461 against 965-972 / 3794-3810. 32, 64, 96, 192 and 256
    // tiles ahead were slower or no faster, 512 to 2048 slower than none. With the staged tiles
    // (sm_90, and sm_100 and sm_103 until measured there); register tiles were not measured with
    // it and prefetch nothing. Tiles past the grid's first wave prefetch, while their own loads
    // are in flight. Against every tile prefetching as it starts (the default before 2026-11-28),
    // H100, two builds in one call, two runs, us at 2^23 / 2^24 / 2^26 / 2^28 / 2^30 floats:
    // 41.0-41.1 / 69.1-69.2 / 231.6-232.0 / 867-868 / 3409-3410 against 44.8-45.0 / 73.8-73.9 /
    // 239.4-240.2 / 877-887 / 3426-3450 (CUB 37.1-37.9 / 66.1-74.3 / 231-233 / 880-882 /
    // 3479-3481). Issued after the loads had landed it was faster at 2^23 (37.3) but spilled 4
    // bytes in the staged exclusive int kernel (test/codegen/scan.cu); after the tile's first pass
    // over its words it lost the prefetch's gain at 2^28 (970 against 876 us). docs/scan.md.
    scan_policy p = {256, 24, 1, true, 8, std::size_t{1} << 21};
    if (detail::arch::limits_of(arch).shared_bytes_per_sm >= 8 * tile_bytes) {
      p = {256, 24, 8, true, 8, std::size_t{1} << 21, true, 6, false, 3, 128};
    }
    // The large shape's results stored evict-first: H200, two builds alternated in one call
    // (forty-seventh session), us at 2^24 / 2^28 / 2^30 floats: 45.9-46.1 / 628.9-632.5 /
    // 2493.3-2496.1 against 48.7-48.8 / 656.9-657.0 / 2581.0-2585.3 (CUB 53.2-53.7 / 685.7-688.9
    // / 2699-2713); int32 alike. Not measured with register tiles.
    p.streaming_stores = true;
    return p;
  }
};

}  // namespace gpuprims
