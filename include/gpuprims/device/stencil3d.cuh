// Host launchers of the 3D stencil: gpuprims::apply_stencil3d (one step by 2.5D register
// streaming) and gpuprims::apply_stencil3d_fused (several steps in one pass), over one grid or a
// batch.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/fused_strip3d.cuh>
#include <gpuprims/detail/stencil/kernels3d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace gpuprims {

/// `batch` grids of depth x rows x cols (pitches in elements: rows pitch_y >= cols apart, planes
/// pitch_z >= rows x pitch_y apart; grid g starts g x batch stride elements in), each filtered on
/// its own: out[z][y][x] = sum of w(dz, dy, dx) in[z + dz][y + dy][x + dx] over the shape (Shape
/// star or box, radius Rad from 1 to 4), positions outside the grid supplied by `b` (a rule per
/// axis; one rule for all three). float or double. Each warp marches a strip of rows along z, each
/// plane's rows in registers (2.5D streaming, gpuprims::warp_stencil3d), so the grid is read about
/// once. A user update (gpuprims::stencil_update) in place of the weights runs as one step of
/// apply_stencil3d_fused (its tuning, not Tuning).
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
  if constexpr (detail::is_stencil_update<Weights>) {
    return detail::launch_stencil3d_fused<stencil3d_fused_tuning, Rad, Shape, 1>(
        in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
        in_batch_stride, out_batch_stride, weights, b, stream);
  } else {
    return detail::launch_stencil3d<Tuning, Rad, Shape>(
        in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
        in_batch_stride, out_batch_stride, weights, b, stream);
  }
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

/// Steps applications of apply_stencil3d<Rad, Shape> (weights, or a user update) in one pass over
/// memory (temporal blocking): the same arguments, and the same bits as Steps single steps (each
/// step's outputs the next step's inputs, points outside the grid supplied by `b` from that step's
/// values). Blocks march overlapping spans along z, each step Rad planes behind the one before
/// and the spans recomputing Steps x Rad points around their outputs, so the grid moves through
/// memory about once: weights of up to 4 steps of radius 1 (2 of radius 2) keep every step's
/// planes in registers (register streaming), deeper fusions and user updates keep them in shared
/// memory (stencil3d_fused_tuning; docs/stencil.md has what each costs); one step of weights runs
/// apply_stencil3d's kernel, which is faster, where the tuning's one_step_by_stencil3d says so (the
/// library's does). 2 x Steps x Rad must stay below 32; where the shared memory path runs, Steps x
/// (2 Rad + 1) planes of a span at least one tile row tall must fit a block's shared memory on the
/// device, else cudaErrorInvalidValue; the checks of apply_stencil3d. Asynchronous on `stream` (one
/// to three launches).
///
///   gpuprims::stencil3d_weights<float, 1> w{};  // an explicit heat step, 7 points
///   w.w[1][1][0] = w.w[1][1][2] = w.w[1][0][1] = w.w[1][2][1] = w.w[0][1][1] = w.w[2][1][1] = .1f;
///   w.w[1][1][1] = .4f;
///   cudaError_t e = gpuprims::apply_stencil3d_fused<1, gpuprims::stencil_shape::star, 4>(
///       d_in, d_out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
///       in_stride, out_stride, w, gpuprims::boundary::periodic(), stream);
template <int Rad, stencil_shape Shape, int Steps, class Tuning = stencil3d_fused_tuning, class T,
          class Weights>
[[nodiscard]] cudaError_t apply_stencil3d_fused(
    const T* in, T* out, std::size_t batch, std::size_t depth, std::size_t rows, std::size_t cols,
    std::size_t in_pitch_y, std::size_t in_pitch_z, std::size_t out_pitch_y,
    std::size_t out_pitch_z, std::size_t in_batch_stride, std::size_t out_batch_stride,
    const Weights& weights, boundary3d b = {}, cudaStream_t stream = 0) {
  static_assert(Rad >= 1 && Rad <= 4, "apply_stencil3d_fused supports radii 1 to 4");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "apply_stencil3d_fused supports float and double");
  static_assert(detail::weights3d_radius<Weights> == Rad, "the weights' radius is Rad");
  static_assert(std::is_trivially_copyable_v<Weights>, "the weights travel to the kernel by value");
  static_assert(Steps >= 1 && 2 * Steps * Rad < 32,
                "apply_stencil3d_fused: 1 or more steps, 2 x Steps x Rad below 32");
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_stencil3d(in, out, batch, depth, rows, cols, in_pitch_y,
                                                      in_pitch_z, out_pitch_y, out_pitch_z,
                                                      in_batch_stride, out_batch_stride, b));
  if constexpr (Steps == 1 && !detail::is_stencil_update<Weights> &&
                detail::fused3d_one_step_by_stencil3d<Tuning>) {
    // One step of weights where the tuning says so (the library's does): apply_stencil3d's kernel,
    // the same bits and faster (docs/stencil.md: 403 against 539 us for the 7-point star on 512^3
    // floats).
    return detail::launch_stencil3d<stencil3d_tuning, Rad, Shape>(
        in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
        in_batch_stride, out_batch_stride, weights, b, stream);
  } else {
    return detail::launch_stencil3d_fused<Tuning, Rad, Shape, Steps>(
        in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
        in_batch_stride, out_batch_stride, weights, b, stream);
  }
}

/// One grid, Steps steps in one pass.
///
///   const auto step = gpuprims::make_stencil_update<1>(my_update{});  // docs/stencil.md
///   cudaError_t e = gpuprims::apply_stencil3d_fused<1, gpuprims::stencil_shape::box, 2>(
///       d_in, d_out, depth, rows, cols, cols, rows * cols, cols, rows * cols, step,
///       gpuprims::boundary::clamp(), stream);
template <int Rad, stencil_shape Shape, int Steps, class Tuning = stencil3d_fused_tuning, class T,
          class Weights>
[[nodiscard]] cudaError_t apply_stencil3d_fused(const T* in, T* out, std::size_t depth,
                                                std::size_t rows, std::size_t cols,
                                                std::size_t in_pitch_y, std::size_t in_pitch_z,
                                                std::size_t out_pitch_y, std::size_t out_pitch_z,
                                                const Weights& weights, boundary3d b = {},
                                                cudaStream_t stream = 0) {
  return apply_stencil3d_fused<Rad, Shape, Steps, Tuning>(in, out, 1, depth, rows, cols, in_pitch_y,
                                                          in_pitch_z, out_pitch_y, out_pitch_z, 0,
                                                          0, weights, b, stream);
}

}  // namespace gpuprims
