// Tuning of gpuprims' device-wide scans: a plain policy, chosen by architecture. Pass your own
// selector (a type with the same static select) as the launcher's Tuning argument to override it.
//
// The tile size fixes the order in which a scan combines items (docs/scan.md, "The order"): the
// library's selector returns the same policy for every architecture, so every GPU gives the same
// bits.
#pragma once

#include <gpuprims/config.cuh>

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
};

/// The library's scan policy for code built for `arch`: the same for every architecture.
struct scan_tuning {
  __host__ __device__ static constexpr scan_policy select(int /*arch*/) {
    // 256 threads x 24 items (6144 floats, 24 KiB a tile), no register cap. One run on the H100,
    // 2^28 floats (us): 256 x 24 1203-1207, 256 x 16 1245, 512 x 24 1187, 1024 x 16 1374; capped
    // to 5 blocks an SM (48 registers) 256 x 24 took 1131-1141 and 256 x 16 at 6 blocks 1171-1177,
    // but the cap spills (local memory) in some instantiations, so it stays off; the same kernel
    // without its look-back 739-802, a copy 720: the look-back, not the data path, is what costs
    // (docs/scan.md). Up to 2^21 items, 256 x 8: at 2^16 and 2^20 floats it took 5.25 and 7.96 us
    // against 256 x 24's 9.18 and 11.2 (CUB 10.1 and 12.2), at 2^24 102 against 86.8.
    return {256, 24, 1, true, 8, std::size_t{1} << 21};
  }
};

}  // namespace gpuprims
