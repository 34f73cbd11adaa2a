// Tuning of gpuprims' stream compaction (select_if, partition): the scan's policy type, chosen by
// architecture. Pass your own selector (a type with the same static select) as the launcher's
// Tuning argument to override it.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/tuning/scan.cuh>

#include <cstddef>

namespace gpuprims {

/// The library's compaction policy for code built for `arch`: a tile of block_threads x
/// items_per_thread items (4-byte items; wider ones proportionally fewer) stays in registers while
/// its flags are counted and waits in shared memory (one item each) for its place in the output.
struct select_tuning {
  __host__ __device__ static constexpr scan_policy select(int /*arch*/) {
    // 256 x 24 (6144 ints, 24 KiB of shared memory a block); up to 2^21 items 256 x 8, as the
    // scan. select_int, H100, against 256 x 16 (us at 2^24 / 2^28 / 2^30): 63.8 / 910 / 3623
    // against 71.3 / 973 / 3870 (2026-11-23), 60.3-61.0 / 894-896 / 3581-3586 against 65.1-66.0 /
    // 956-961 / 3820-3840 (2026-11-24, two runs); docs/select.md has the rows.
    return {256, 24, 1, true, 8, std::size_t{1} << 21};
  }
};

}  // namespace gpuprims
