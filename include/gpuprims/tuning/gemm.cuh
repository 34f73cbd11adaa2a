// Tuning of gpuprims::gemm: a plain policy, chosen by architecture. Pass your own selector (a type
// with the same static select) as the launcher's Tuning argument to override it.
#pragma once

#include <gpuprims/config.cuh>

namespace gpuprims {

/// An FP32 gemm tile: block_m x block_n outputs a block over k in steps of block_k, each thread
/// thread_m x thread_n of them, (block_m / thread_m) x (block_n / thread_n) threads; warp_tiled
/// lays the threads out in 64 x 32 warp tiles (needs 128 x 128 x 8 x 8); 16-byte loads and stores
/// where the pointers and leading dimensions allow.
struct gemm_policy {
  int block_m;
  int block_n;
  int block_k;  ///< a multiple of 4
  int thread_m;
  int thread_n;
  bool warp_tiled;
  int min_blocks_per_sm;
  bool vector_global;  ///< 16-byte global loads and stores where the pointers allow
  int stages = 1;      ///< 2: double-buffered tiles (block_gemm_tile's Stages)
  int group_m = 1;     ///< blocks walk groups of group_m tile rows column by column (L2 reuse)
};

/// The library's policy for code built for `arch`: the same everywhere for now. A selector may
/// also offer several shapes, largest first: `static constexpr int shapes` and
/// `select(int arch, int shape)`; gemm takes the first whose tiles are at least as many as the
/// GPU's SMs, else the last.
struct gemm_tuning {
  __host__ __device__ static constexpr gemm_policy select(int /*arch*/) {
    // 128 x 128 x 16, 8 x 8 a thread in warp tiles, 2 blocks an SM (<= 128 registers), one
    // stage: the ladder's warp_tiled rung (docs/matmul.md).
    return {128, 128, 16, 8, 8, true, 2, true};
  }
};

}  // namespace gpuprims
