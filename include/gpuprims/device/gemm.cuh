// Host launcher of the FP32 matrix product: gpuprims::gemm.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/gemm/kernels.cuh>
#include <gpuprims/tuning/gemm.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims {

/// C = alpha A B + beta C for row-major float matrices: A m x k (leading dimension lda >= k), B
/// k x n (ldb >= n), C m x n (ldc >= n), on `stream`, any m, n, k. As BLAS does: m or n of 0 does
/// nothing; k of 0 or alpha of 0 scales C by beta without reading A or B; beta of 0 never reads C
/// (NaN there does not leak). A null pointer that would be read or written, a leading dimension
/// shorter than its row, C overlapping A or B, or spans that do not fit in 64 bits return
/// cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::gemm(d_a, d_b, d_c, m, n, k, k, n, n, 1.0f, 0.0f, stream);
template <class Tuning = gemm_tuning>
[[nodiscard]] cudaError_t gemm(const float* a, const float* b, float* c, std::size_t m,
                               std::size_t n, std::size_t k, std::size_t lda, std::size_t ldb,
                               std::size_t ldc, float alpha, float beta, cudaStream_t stream = 0) {
  if (!detail::gemm_arguments_ok(a, b, c, m, n, k, lda, ldb, ldc, alpha)) {
    return cudaErrorInvalidValue;
  }
  if (m == 0 || n == 0) {
    return cudaSuccess;
  }
  return detail::launch_gemm_tiles<Tuning>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
}

}  // namespace gpuprims
