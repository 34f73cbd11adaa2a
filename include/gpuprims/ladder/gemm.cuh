// The matrix-multiply ladder of the reference lecture and beyond, rung by rung, for teaching and
// measuring: from one output per thread to the lecture's 16 x 16 shared tiles, register blocking,
// 16-byte accesses, warp tiling and double buffering. Production code calls gpuprims::gemm.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/gemm/kernels.cuh>
#include <gpuprims/device/gemm.cuh>
#include <gpuprims/tuning/gemm.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::ladder {

enum class gemm_rung {
  naive,            ///< one output per thread, threads down a column: A and C uncoalesced
  coalesced,        ///< one output per thread, threads along a row: B and C coalesced
  shared_16x16,     ///< the lecture's 16 x 16 tiles of A and B in shared memory, one output each
  blocktiling_1d,   ///< 64 x 64 x 8 tiles, 8 outputs (a column) per thread, scalar global accesses
  blocktiling_2d,   ///< 128 x 128 x 8 tiles, 8 x 8 outputs per thread, scalar global accesses
  vectorized,       ///< 128 x 128 x 16 with 16-byte global loads and stores
  warp_tiled,       ///< + warp tiles of 64 x 32: conflict-free broadcast reads
  double_buffered,  ///< + two tile pairs: the next k-step's loads in flight during this one's math
  library_default,  ///< gpuprims::gemm
};

namespace detail {
template <int BM, int BN, int BK, int TM, int TN, bool WarpTiled, int MinBlocks, bool Vector,
          int Stages = 1, int GroupM = 1>
struct fixed_gemm_tuning {
  __host__ __device__ static constexpr gemm_policy select(int /*arch*/) {
    return {BM, BN, BK, TM, TN, WarpTiled, MinBlocks, Vector, Stages, GroupM};
  }
};
}  // namespace detail

/// gpuprims::gemm's arguments and checks, computed by one rung.
template <gemm_rung Rung>
[[nodiscard]] cudaError_t gemm(const float* a, const float* b, float* c, std::size_t m,
                               std::size_t n, std::size_t k, std::size_t lda, std::size_t ldb,
                               std::size_t ldc, float alpha, float beta, cudaStream_t stream = 0) {
  using namespace gpuprims::detail;
  if (!gemm_arguments_ok(a, b, c, m, n, k, lda, ldb, ldc, alpha)) {
    return cudaErrorInvalidValue;
  }
  if (m == 0 || n == 0) {
    return cudaSuccess;
  }
  const std::size_t outputs = m * n;
  const auto blocks = [](std::size_t work, std::size_t per_block) {
    const std::size_t b = ceil_div(work, per_block);
    return dim3(static_cast<unsigned int>(b < 0x7fffffff ? b : 0x7fffffff));
  };
  if constexpr (Rung == gemm_rung::naive) {
    return launch<gemm_naive_kernel<>>(blocks(outputs, 256), dim3(256), stream, false, a, b, c, m,
                                       n, k, lda, ldb, ldc, alpha, beta);
  } else if constexpr (Rung == gemm_rung::coalesced) {
    return launch<gemm_coalesced_kernel<>>(blocks(outputs, 256), dim3(256), stream, false, a, b, c,
                                           m, n, k, lda, ldb, ldc, alpha, beta);
  } else if constexpr (Rung == gemm_rung::shared_16x16) {
    const std::size_t tiles = ceil_div(m, 16) * ceil_div(n, 16);
    if (tiles > 0x7fffffff) {
      return cudaErrorInvalidValue;
    }
    return launch<gemm_shared16_kernel<>>(dim3(static_cast<unsigned int>(tiles)), dim3(16, 16),
                                          stream, false, a, b, c, m, n, k, lda, ldb, ldc, alpha,
                                          beta);
  } else if constexpr (Rung == gemm_rung::blocktiling_1d) {
    return launch_gemm_tiles<ladder::detail::fixed_gemm_tuning<64, 64, 8, 8, 1, false, 1, false>>(
        a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
  } else if constexpr (Rung == gemm_rung::blocktiling_2d) {
    return launch_gemm_tiles<ladder::detail::fixed_gemm_tuning<128, 128, 8, 8, 8, false, 1, false>>(
        a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
  } else if constexpr (Rung == gemm_rung::vectorized) {
    return launch_gemm_tiles<ladder::detail::fixed_gemm_tuning<128, 128, 16, 8, 8, false, 2, true>>(
        a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
  } else if constexpr (Rung == gemm_rung::warp_tiled) {
    return launch_gemm_tiles<ladder::detail::fixed_gemm_tuning<128, 128, 16, 8, 8, true, 2, true>>(
        a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
  } else if constexpr (Rung == gemm_rung::double_buffered) {
    return launch_gemm_tiles<
        ladder::detail::fixed_gemm_tuning<128, 128, 16, 8, 8, true, 2, true, 2>>(
        a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
  } else {
    return gpuprims::gemm(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
  }
}

}  // namespace gpuprims::ladder
