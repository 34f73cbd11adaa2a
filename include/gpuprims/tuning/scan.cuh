// Tuning of gpuprims' device-wide scans: a plain policy, chosen by architecture. Pass your own
// selector (a type with the same static select) as the launcher's Tuning argument to override it.
//
// The tile size fixes the order in which a scan combines items (docs/scan.md, "The order"): the
// library's selector returns the same policy for every architecture, so every GPU gives the same
// bits.
#pragma once

#include <gpuprims/config.cuh>

namespace gpuprims {

/// One tile of the single-pass scan: `block_threads` threads, each scanning `items_per_thread`
/// items of 4 bytes (proportionally fewer for wider items or results, at least one 16-byte word),
/// loaded as 16-byte words, all in flight before the first is used; a block per tile.
struct scan_policy {
  int block_threads;      ///< a multiple of 32 up to 1024
  int items_per_thread;   ///< counted in 4-byte items
  int min_blocks_per_sm;  ///< __launch_bounds__' minimum: caps the registers, raises residency
  bool dependent_launch;
};

/// The library's scan policy for code built for `arch`: the same for every architecture.
struct scan_tuning {
  __host__ __device__ static constexpr scan_policy select(int /*arch*/) {
    // 256 threads x 24 items (6144 floats, 24 KiB a tile), no register cap. One run on the H100,
    // 2^28 floats (us): 256 x 24 1203-1207, 256 x 16 1245, 512 x 24 1187, 1024 x 16 1374; capped
    // to 5 blocks an SM (48 registers) 256 x 24 took 1131-1141 and 256 x 16 at 6 blocks 1171-1177,
    // but the cap spills (local memory) in some instantiations, so it stays off; the same kernel
    // without its look-back 739-802, a copy 720: the look-back, not the data path, is what costs
    // (docs/scan.md).
    return {256, 24, 1, true};
  }
};

}  // namespace gpuprims
