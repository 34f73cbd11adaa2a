// Tuning of gpuprims' stream compaction (select_if, partition): the scan's policy type, chosen by
// architecture. Pass your own selector (a type with the same static select) as the launcher's
// Tuning argument to override it.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/tuning/scan.cuh>

#include <cstddef>

namespace gpuprims {

/// The library's compaction policy for code built for `arch`: a tile of block_threads x
/// items_per_thread items (4-byte items; wider ones proportionally fewer) has its flags counted,
/// waits for its place in the output, and is compacted in shared memory. Where five 44 KiB tiles
/// fit in an SM's shared memory a tile is copied there and waits there (staged) rather than in
/// registers. A compaction's result does not depend on the tile shape, so it may differ by GPU.
struct select_tuning {
  __host__ __device__ static constexpr scan_policy select(int arch) {
    // Staged: 256 x 40 (10240 ints, 40 KiB, and its flags, 2 KiB, in shared memory) at 5 blocks an
    // SM. Up to 2^21 items 256 x 8 in registers, as the scan. H100, one binary, two runs (us at
    // 2^22 / 2^28 / 2^30): 12.8-13.0 / 695.5-695.7 / 2750 against 11.8-11.9 / 710.6-713.9 /
    // 2809-2816 for 256 x 32 at 6 blocks (the default before) and CUB's 15.4-15.6 / 707.3-715.5 /
    // 2778-2786; docs/select.md has the table.
    // The tile, its flags, its counts and the reserved 1 KiB.
    constexpr int tile_bytes = 256 * 40 * 4 + 256 * 2 * 4 + 2 * 1024;
    // Each tile asks the L2 for the input of the tile 128 after it (5 MiB ahead), as the scan
    // does. H100, one binary, two runs (twenty-seventh session), us at 2^24 / 2^28 /
    // 2^30: 51.2-51.4 / 633 / 2501-2506 against 50.9-51.6 / 694-698 / 2770-2775 without
    // (CUB 54.0-54.2 / 706 / 2786-2789); partition 909-910 / 3566-3568 against 964-968 / 3815-3828
    // at 2^28 / 2^30. 96 and 192 tiles ahead were within 1%, 32, 64 and 256 slower. With the
    // staged tiles only (the register tiles were not measured with it). Since 2026-11-27 not for
    // the grid's first wave, and issued after the tile's own loads (scan_policy), us at 2^22 /
    // 2^23 / 2^24 / 2^28 / 2^30 ints, two runs against two of the build before in one call:
    // 12.7-13.0 / 29.0-29.3 / 49.6-50.4 / 640-641 / 2535-2539 against 13.7-13.8 / 30.1-30.2 /
    // 51.5-52.2 / 633-637 / 2490-2491 (CUB 15.4-15.6 / 30.1-30.5 / 53.9-54.5 / 704-712 /
    // 2778-2787); partition 894-896 / 3520-3524 against 910-911 / 3568-3574 at 2^28 / 2^30.
    if (detail::arch::limits_of(arch).shared_bytes_per_sm >= 5 * tile_bytes) {
      return {256, 40, 5, true, 8, std::size_t{1} << 21, true, 5, false, 0, 128};
    }
    // In registers: 256 x 24. H100, against 256 x 16 (us at 2^24 / 2^28 / 2^30): 63.8 / 910 / 3623
    // against 71.3 / 973 / 3870 (2026-11-23), 60.3-61.0 / 894-896 / 3581-3586 against 65.1-66.0 /
    // 956-961 / 3820-3840 (2026-11-24, two runs).
    return {256, 24, 3, true, 8, std::size_t{1} << 21};
  }
};

}  // namespace gpuprims
