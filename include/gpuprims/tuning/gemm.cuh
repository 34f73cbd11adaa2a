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
};

/// The library's policy for code built for `arch`: the same everywhere for now.
struct gemm_tuning {
  __host__ __device__ static constexpr gemm_policy select(int /*arch*/) {
    // 128 x 128 x 16, 8 x 8 a thread in warp tiles, 2 blocks an SM (<= 128 registers): the
    // fastest rung on an H100 (31.4 TFLOP/s at 4096^3, 0.61x cublasSgemm; docs/matmul.md); no
    // other tile shape measured yet.
    return {128, 128, 16, 8, 8, true, 2, true};
  }
};

}  // namespace gpuprims
