// Host launcher of the 3D stencil: gpuprims::apply_stencil3d (one step by 2.5D register
// streaming), over one grid or a batch.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/kernels3d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims {

/// `batch` grids of depth x rows x cols (pitches in elements: rows pitch_y >= cols apart, planes
/// pitch_z >= rows x pitch_y apart; grid g starts g x batch stride elements in), each filtered on
/// its own: out[z][y][x] = sum of w(dz, dy, dx) in[z + dz][y + dy][x + dx] over the shape (Shape
/// star or box, radius Rad from 1 to 4), positions outside the grid supplied by `b` (a rule per
/// axis; one rule for all three). float or double. Each warp marches a strip of rows along z, each
/// plane's rows in registers (2.5D streaming, gpuprims::warp_stencil3d), so the grid is read about
/// once.
/// Null pointers, zero sizes, pitches or strides shorter than a row, plane or grid, overlapping
/// spans and unknown boundary modes return cudaErrorInvalidValue and launch nothing. Asynchronous
/// on `stream`.
///
///   gpuprims::stencil3d_weights<float, 1> w{};  // a 7-point Laplacian
///   w.w[1][1][0] = w.w[1][1][2] = w.w[1][0][1] = w.w[1][2][1] = w.w[0][1][1] = w.w[2][1][1] = 1;
///   w.w[1][1][1] = -6;
///   cudaError_t e = gpuprims::apply_stencil3d<1, gpuprims::stencil_shape::star>(
///       d_in, d_out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
///       in_stride, out_stride, w, gpuprims::boundary::periodic(), stream);
template <int Rad, stencil_shape Shape, class Tuning = stencil3d_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil3d(const T* in, T* out, std::size_t batch, std::size_t depth,
                                          std::size_t rows, std::size_t cols,
                                          std::size_t in_pitch_y, std::size_t in_pitch_z,
                                          std::size_t out_pitch_y, std::size_t out_pitch_z,
                                          std::size_t in_batch_stride, std::size_t out_batch_stride,
                                          const Weights& weights, boundary3d b = {},
                                          cudaStream_t stream = 0) {
  static_assert(detail::weights3d_radius<Weights> == Rad, "the weights' radius is Rad");
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_stencil3d(in, out, batch, depth, rows, cols, in_pitch_y,
                                                      in_pitch_z, out_pitch_y, out_pitch_z,
                                                      in_batch_stride, out_batch_stride, b));
  return detail::launch_stencil3d<Tuning, Rad, Shape>(
      in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
      in_batch_stride, out_batch_stride, weights, b, stream);
}

/// One grid.
///
///   gpuprims::stencil3d_weights<float, 1> w{};
///   w.w[1][1][1] = 1;  // the identity, as a start
///   cudaError_t e = gpuprims::apply_stencil3d<1, gpuprims::stencil_shape::box>(
///       d_in, d_out, depth, rows, cols, cols, rows * cols, cols, rows * cols, w,
///       gpuprims::boundary::clamp(), stream);
template <int Rad, stencil_shape Shape, class Tuning = stencil3d_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil3d(const T* in, T* out, std::size_t depth, std::size_t rows,
                                          std::size_t cols, std::size_t in_pitch_y,
                                          std::size_t in_pitch_z, std::size_t out_pitch_y,
                                          std::size_t out_pitch_z, const Weights& weights,
                                          boundary3d b = {}, cudaStream_t stream = 0) {
  return apply_stencil3d<Rad, Shape, Tuning>(in, out, 1, depth, rows, cols, in_pitch_y, in_pitch_z,
                                             out_pitch_y, out_pitch_z, 0, 0, weights, b, stream);
}

}  // namespace gpuprims
