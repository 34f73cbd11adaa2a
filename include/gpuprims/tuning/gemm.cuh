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

/// The library's policies for code built for `arch`, the largest tile first (`shapes` of them):
/// gemm takes the first shape whose tiles are at least as many as the GPU's SMs, else the last.
/// A selector may also have one shape: `static constexpr gemm_policy select(int arch)`.
struct gemm_tuning {
  static constexpr int shapes = 3;
  __host__ __device__ static constexpr gemm_policy select(int /*arch*/, int shape) {
    // All double-buffered in warp tiles, groups of 8 tile rows. H100, one run (docs/matmul.md):
    // 128 x 256 x 8, 8 x 16 a thread, one block an SM: 71.2% / 71.7% of the FP32 peak at 4096^3 /
    // 8192^3 against 69.4% / 70.5% for 128 x 128 x 16 (cuBLAS 77%); 128 x 128 at 2048^3 66.2%
    // (its 256 tiles fill the SMs; 128 x 256 has 128); 128 x 64 at 1024^3 51.4% (128 x 128: 29.7%).
    return shape == 0   ? gemm_policy{128, 256, 8, 8, 16, true, 1, true, 2, 8}
           : shape == 1 ? gemm_policy{128, 128, 16, 8, 8, true, 2, true, 2, 8}
                        : gemm_policy{128, 64, 16, 8, 4, true, 2, true, 2, 8};
  }
};

}  // namespace gpuprims
