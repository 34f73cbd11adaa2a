// Host launcher of the transpose: gpuprims::transpose, pitched and batched.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/transpose/kernels.cuh>
#include <gpuprims/tuning/transpose.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims {

/// out (cols x rows, row pitch out_pitch) = in^T (rows x cols, row pitch in_pitch), for `batch`
/// matrices in_batch_stride / out_batch_stride elements apart. Elements of 1, 2, 4, 8 or 16
/// bytes. Out of place: overlapping spans return cudaErrorInvalidValue, as do null pointers,
/// pitches shorter than a row and batch strides shorter than a matrix; an empty matrix or batch
/// launches nothing. Asynchronous on `stream`.
///
///   // three 100 x 50 matrices, rows padded to 64 and 128 elements, packed back to back:
///   cudaError_t e = gpuprims::transpose(d_in, d_out, 100, 50, 64, 128, 3, 100 * 64,
///                                       50 * 128, stream);
template <class Tuning = transpose_tuning, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    std::size_t in_pitch, std::size_t out_pitch, std::size_t batch,
                                    std::size_t in_batch_stride, std::size_t out_batch_stride,
                                    cudaStream_t stream = 0) {
  const detail::transpose_shape s{
      rows, cols, in_pitch, out_pitch, batch, in_batch_stride, out_batch_stride};
  return detail::checked_transpose(in, out, s, [&](const detail::transpose_shape& checked) {
    return detail::launch_transpose<Tuning>(in, out, checked, stream);
  });
}

/// One matrix with row pitches (elements): in_pitch >= cols, out_pitch >= rows, as cuBLAS geam's
/// lda/ldc.
template <class Tuning = transpose_tuning, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    std::size_t in_pitch, std::size_t out_pitch,
                                    cudaStream_t stream = 0) {
  return transpose<Tuning>(in, out, rows, cols, in_pitch, out_pitch, 1, rows * in_pitch,
                           cols * out_pitch, stream);
}

/// One dense row-major matrix.
///
///   cudaError_t e = gpuprims::transpose(d_in, d_out, rows, cols, stream);
template <class Tuning = transpose_tuning, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    cudaStream_t stream = 0) {
  return transpose<Tuning>(in, out, rows, cols, cols, rows, stream);
}

}  // namespace gpuprims
