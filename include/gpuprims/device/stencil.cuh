// Host launchers of the 1D stencil: gpuprims::apply_stencil1d (one step) and
// gpuprims::apply_stencil1d_fused (several steps in one pass), over one signal or a batch of rows.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/fused.cuh>
#include <gpuprims/detail/stencil/kernels.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims {

/// `rows` signals of `cols` elements (row pitches in elements, >= cols), each filtered on its own:
/// out[r][i] = sum over j in [0, 2 Rad] of weights[j] * in[r][i - Rad + j], positions outside
/// [0, cols) supplied by `b`. float or double; weights of radius Rad (a compile-time check), or a
/// user update of radius Rad (gpuprims::stencil_update: out[r][i] = f(at), at(dx) giving
/// in[r][i + dx]), which apply_stencil1d_fused takes too.
/// Out of place: overlapping spans, null pointers, pitches shorter than cols and unknown boundary
/// modes return cudaErrorInvalidValue and launch nothing; rows == 0 or cols == 0 launches nothing.
/// Asynchronous on `stream`.
///
///   gpuprims::stencil_weights<float, 1> w{{1.f, -2.f, 1.f}};
///   cudaError_t e = gpuprims::apply_stencil1d<1>(d_in, d_out, rows, cols, in_pitch,
///                                                out_pitch, w, gpuprims::boundary::periodic(),
///                                                stream);
template <int Rad, class Tuning = stencil_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil1d(const T* in, T* out, std::size_t rows, std::size_t cols,
                                          std::size_t in_pitch, std::size_t out_pitch,
                                          const Weights& weights, boundary b = {},
                                          cudaStream_t stream = 0) {
  detail::check_stencil_types<Rad, T, Weights>();
  if (rows == 0 || cols == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_stencil(in, out, rows, cols, in_pitch, out_pitch, b));
  return detail::launch_stencil<Tuning, Rad>(in, out, rows, cols, in_pitch, out_pitch, weights, b,
                                             stream);
}

/// One signal of n elements.
///
///   gpuprims::stencil_weights<float, 1> w{{1.f, -2.f, 1.f}};
///   cudaError_t e = gpuprims::apply_stencil1d<1>(d_in, d_out, n, w,
///                                                gpuprims::boundary::clamp(), stream);
template <int Rad, class Tuning = stencil_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil1d(const T* in, T* out, std::size_t n,
                                          const Weights& weights, boundary b = {},
                                          cudaStream_t stream = 0) {
  return apply_stencil1d<Rad, Tuning>(in, out, 1, n, n, n, weights, b, stream);
}

/// Steps applications of apply_stencil1d<Rad> in one pass over memory (temporal blocking): the
/// same arguments, and the same bits as calling apply_stencil1d Steps times (each step's outputs
/// the next step's inputs, positions outside [0, cols) supplied by `b` from that step's values).
/// Each block loads its tile with a halo of Steps x Rad on each side and recomputes the halo's
/// shrinking part at each step, so the memory traffic of Steps steps is that of one. Steps from 1
/// to 16; the same checks as apply_stencil1d. Asynchronous on `stream`.
///
///   gpuprims::stencil_weights<float, 1> w{{0.25f, 0.5f, 0.25f}};
///   cudaError_t e = gpuprims::apply_stencil1d_fused<1, 4>(d_in, d_out, rows, cols, in_pitch,
///                                                         out_pitch, w,
///                                                         gpuprims::boundary::clamp(), stream);
template <int Rad, int Steps, class Tuning = stencil_fused_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil1d_fused(const T* in, T* out, std::size_t rows,
                                                std::size_t cols, std::size_t in_pitch,
                                                std::size_t out_pitch, const Weights& weights,
                                                boundary b = {}, cudaStream_t stream = 0) {
  detail::check_stencil_types<Rad, T, Weights>();
  static_assert(Steps >= 1 && Steps <= 16, "apply_stencil1d_fused fuses 1 to 16 steps");
  if (rows == 0 || cols == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_stencil(in, out, rows, cols, in_pitch, out_pitch, b));
  return detail::launch_stencil_fused<Tuning, Rad, Steps>(in, out, rows, cols, in_pitch, out_pitch,
                                                          weights, b, stream);
}

/// One signal of n elements, Steps steps in one pass.
///
///   gpuprims::stencil_weights<float, 1> w{{0.25f, 0.5f, 0.25f}};
///   cudaError_t e = gpuprims::apply_stencil1d_fused<1, 4>(d_in, d_out, n, w,
///                                                         gpuprims::boundary::periodic(), stream);
template <int Rad, int Steps, class Tuning = stencil_fused_tuning, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil1d_fused(const T* in, T* out, std::size_t n,
                                                const Weights& weights, boundary b = {},
                                                cudaStream_t stream = 0) {
  return apply_stencil1d_fused<Rad, Steps, Tuning>(in, out, 1, n, n, n, weights, b, stream);
}

}  // namespace gpuprims
