// Tuning of gpuprims::transpose: a plain policy, chosen by architecture and element size. Pass your
// own selector (a type with the same static select) as the launcher's Tuning argument to override
// it.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>

#include <cstddef>

namespace gpuprims {

/// How gpuprims::transpose tiles a matrix.
struct transpose_policy {
  int tile;        ///< square tiles of tile x tile elements; blocks of (tile, block_rows)
  int block_rows;  ///< each thread moves tile / block_rows elements of a tile
  int pad;         ///< elements added to each row of the shared tile (bank-conflict padding)
  int min_blocks;  ///< resident blocks per SM to keep registers for (capped by the target)
  int strided_min_blocks;  ///< ... for the grid-stride kernel (more tiles than a grid holds)
  bool bulk_stores;        ///< whole tiles leave through bulk copies (sm_90 and later)
  std::size_t bulk_store_min_bytes;  ///< ... on calls of at least this many bytes (all matrices)
  bool dependent_launch;             ///< programmatic dependent launch where the code has it
};

/// The library's transpose policy for code built for `arch` (compute capability x 10) and elements
/// of `element_size` bytes, newest measured architecture first.
struct transpose_tuning {
  __host__ __device__ static constexpr transpose_policy select(int arch, std::size_t element_size) {
    transpose_policy p{};
    const bool small = element_size <= 4;
    // transpose_4B/gpuprims::transpose against shared_padded (32 x 32) at 8192^2 floats on the
    // H100: 2809 vs 2788 GB/s, 256-byte row pieces on both sides; 8- and 16-byte elements already
    // move 256 bytes a row in 32-wide tiles (transpose_8B: 0.978x cudaMemcpyAsync).
    p.tile = small ? 64 : 32;
    // 8 elements a thread: 512 threads for the 64 x 64 tile, the best of 256/512/1024 (+1-3%,
    // notes/transpose.md).
    p.block_rows = 8;
    // One 4-byte word per row: a tile column then reads 32 banks (smem wavefronts/inst 1.02,
    // profile_counters).
    p.pad = small ? 4 / static_cast<int>(element_size) : 1;
    // Registers for a whole SM of threads: uncapped, 52 registers halved the loads in flight (2222
    // GB/s at 8192^2 floats); capped, 2722 (32 x 32) and 2791-2805 (64 x 64) on the H100
    // (notes/transpose.md). Every architecture gets the same rule from its own limits.
    p.min_blocks = detail::arch::limits_of(arch).max_threads_per_sm / (p.tile * p.block_rows);
    // The grid-stride kernel keeps its loop state live too: 8- and 16-byte elements spilled at 32
    // registers (test/codegen), so they keep registers for half the blocks there.
    p.strided_min_blocks = small ? p.min_blocks : p.min_blocks / 2;
    p.dependent_launch = true;
    if (arch >= 90 && arch < 110) {  // H100 measurements; sm_100 and sm_103 until measured there
      // transpose_4B/tile64_bulk_stores against tile64_plain_stores: +0.9-1.3% from 64 MiB up,
      // -16% at 16 MiB (2048^2), -5% for 2-byte elements at 8192^2: floats of 32 MiB and more.
      p.bulk_stores = element_size == 4;
      p.bulk_store_min_bytes = std::size_t{32} << 20;
    }
    return p;
  }
};

}  // namespace gpuprims
