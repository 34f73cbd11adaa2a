// Host launchers of the 2D stencil: gpuprims::apply_stencil2d (one step) and
// gpuprims::apply_stencil2d_fused (several steps in one pass), over one grid or a batch.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/fused2d.cuh>
#include <gpuprims/detail/stencil/kernels2d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace gpuprims {

/// `batch` grids of rows x cols (row pitches in elements, >= cols; grid g starts g x batch stride
/// elements in), each filtered on its own: out[y][x] = sum of w(dy, dx) in[y + dy][x + dx] over
/// the shape (Shape star or box, radius Rad from 1 to 4), positions outside the grid supplied by
/// `b` (a rule per axis; one rule for both). float or double. A user update
/// (gpuprims::stencil_update) in place of the weights computes each point by its function, under
/// the policy Tuning gives the box of radius Rad (the update reads the whole box). Null pointers,
/// zero sizes, pitches shorter than cols, batch strides shorter than a grid, overlapping spans and
/// unknown boundary modes return cudaErrorInvalidValue and launch nothing. Asynchronous on
/// `stream`.
///
///   gpuprims::stencil2d_weights<float, 1> w{{{0, 1, 0}, {1, -4, 1}, {0, 1, 0}}};
///   cudaError_t e = gpuprims::apply_stencil2d<1, gpuprims::stencil_shape::star>(
///       d_in, d_out, batch, rows, cols, in_pitch, out_pitch, in_stride, out_stride, w,
///       gpuprims::boundary::periodic(), stream);
template <int Rad, stencil_shape Shape, class Tuning = stencil2d_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil2d(const T* in, T* out, std::size_t batch, std::size_t rows,
                                          std::size_t cols, std::size_t in_pitch,
                                          std::size_t out_pitch, std::size_t in_batch_stride,
                                          std::size_t out_batch_stride, const Weights& weights,
                                          boundary2d b = {}, cudaStream_t stream = 0) {
  static_assert(detail::weights2d_radius<Weights> == Rad, "the weights' radius is Rad");
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_stencil2d(
      in, out, batch, rows, cols, in_pitch, out_pitch, in_batch_stride, out_batch_stride, b));
  return detail::launch_stencil2d<Tuning, Rad, Shape>(in, out, batch, rows, cols, in_pitch,
                                                      out_pitch, in_batch_stride, out_batch_stride,
                                                      weights, b, stream);
}

/// One grid.
///
///   gpuprims::stencil2d_weights<float, 1> w{{{0, 1, 0}, {1, -4, 1}, {0, 1, 0}}};
///   cudaError_t e = gpuprims::apply_stencil2d<1, gpuprims::stencil_shape::star>(
///       d_in, d_out, rows, cols, cols, cols, w, gpuprims::boundary::clamp(), stream);
template <int Rad, stencil_shape Shape, class Tuning = stencil2d_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil2d(const T* in, T* out, std::size_t rows, std::size_t cols,
                                          std::size_t in_pitch, std::size_t out_pitch,
                                          const Weights& weights, boundary2d b = {},
                                          cudaStream_t stream = 0) {
  return apply_stencil2d<Rad, Shape, Tuning>(in, out, 1, rows, cols, in_pitch, out_pitch, 0, 0,
                                             weights, b, stream);
}

/// Steps applications of apply_stencil2d<Rad, Shape> in one pass over memory (temporal blocking):
/// the same arguments, and the same bits as calling apply_stencil2d Steps times (each step's
/// outputs the next step's inputs, points outside the grid supplied by `b` from that step's
/// values; the weights or a user update). Warps march
/// down strips of the grid with every step's rows in registers (or, where
/// Steps x (2 Rad + 1) rows do not fit, blocks work on shared-memory tiles), each strip or tile
/// recomputing Steps x Rad points around its outputs, so Steps steps move the grid through memory
/// about once; one step with the default tuning is apply_stencil2d. 2 x Steps x Rad must stay
/// below 32 (the library's smallest span), and the radius-4 box of doubles is left out (its
/// weights and the fused loop spill registers); the checks of apply_stencil2d. Asynchronous on
/// `stream`.
///
///   gpuprims::stencil2d_weights<float, 1> w{{{0, .2f, 0}, {.2f, .2f, .2f}, {0, .2f, 0}}};
///   cudaError_t e = gpuprims::apply_stencil2d_fused<1, gpuprims::stencil_shape::star, 4>(
///       d_in, d_out, batch, rows, cols, in_pitch, out_pitch, in_stride, out_stride, w,
///       gpuprims::boundary::periodic(), stream);
template <int Rad, stencil_shape Shape, int Steps, class Tuning = stencil2d_fused_tuning, class T,
          class Weights>
[[nodiscard]] cudaError_t apply_stencil2d_fused(const T* in, T* out, std::size_t batch,
                                                std::size_t rows, std::size_t cols,
                                                std::size_t in_pitch, std::size_t out_pitch,
                                                std::size_t in_batch_stride,
                                                std::size_t out_batch_stride,
                                                const Weights& weights, boundary2d b = {},
                                                cudaStream_t stream = 0) {
  static_assert(detail::weights2d_radius<Weights> == Rad, "the weights' radius is Rad");
  static_assert(Steps >= 1 && 2 * Steps * Rad < 32,
                "apply_stencil2d_fused: 1 or more steps, 2 x Steps x Rad below 32");
  static_assert(!(Shape == stencil_shape::box && Rad == 4 && sizeof(T) == 8),
                "apply_stencil2d_fused: the radius-4 box of doubles (81 weights in registers) "
                "spills in the fused loop; use apply_stencil2d");
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_stencil2d(
      in, out, batch, rows, cols, in_pitch, out_pitch, in_batch_stride, out_batch_stride, b));
  if constexpr (Steps == 1 && std::is_same_v<Tuning, stencil2d_fused_tuning>) {
    return detail::launch_stencil2d<stencil2d_tuning, Rad, Shape>(  // one step: the same bits
        in, out, batch, rows, cols, in_pitch, out_pitch, in_batch_stride, out_batch_stride, weights,
        b, stream);
  }
  return detail::launch_stencil2d_fused<Tuning, Rad, Shape, Steps>(
      in, out, batch, rows, cols, in_pitch, out_pitch, in_batch_stride, out_batch_stride, weights,
      b, stream);
}

/// One grid, Steps steps in one pass.
///
///   gpuprims::stencil2d_weights<float, 1> w{{{0, .2f, 0}, {.2f, .2f, .2f}, {0, .2f, 0}}};
///   cudaError_t e = gpuprims::apply_stencil2d_fused<1, gpuprims::stencil_shape::star, 4>(
///       d_in, d_out, rows, cols, cols, cols, w, gpuprims::boundary::clamp(), stream);
template <int Rad, stencil_shape Shape, int Steps, class Tuning = stencil2d_fused_tuning, class T,
          class Weights>
[[nodiscard]] cudaError_t apply_stencil2d_fused(const T* in, T* out, std::size_t rows,
                                                std::size_t cols, std::size_t in_pitch,
                                                std::size_t out_pitch, const Weights& weights,
                                                boundary2d b = {}, cudaStream_t stream = 0) {
  return apply_stencil2d_fused<Rad, Shape, Steps, Tuning>(in, out, 1, rows, cols, in_pitch,
                                                          out_pitch, 0, 0, weights, b, stream);
}

}  // namespace gpuprims
