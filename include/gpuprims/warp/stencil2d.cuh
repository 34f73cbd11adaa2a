// warp_stencil2d: a strip of a 2D stencil computed by one warp in registers (rows streamed down the
// strip, neighbours along x by shuffles), from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/strip2d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims {

/// Columns a warp_stencil2d strip covers: 32 lanes x one 16-byte vector (128 floats, 64 doubles).
template <class T>
inline constexpr int warp_stencil2d_width = detail::strip_width<T>;

/// The calling warp (converged, all 32 lanes) writes out[y0, y0 + Rows) x [x0, x0 +
/// warp_stencil2d_width<T>), clipped to the nx x ny grid (pitches in elements), with the same
/// values (bits) as apply_stencil2d<Rad, Shape>: out[y][x] = sum of w(dy, dx) in[y + dy][x + dx]
/// over the shape, positions outside the grid supplied by `b`, each point by the chain
/// detail::stencil2d_point documents. Lane l owns columns x0 + l V .. x0 + l V + V - 1 (V = 16 /
/// sizeof(T)); the warp walks down the strip Batch rows at a time (inside the grid the next
/// batch's loads are in flight during this one's arithmetic; 2, the default, is what
/// apply_stencil2d takes and was the fastest measured on an H100), each row loaded once (16-byte
/// loads and stores where a row is 16-byte aligned at x0) and kept in registers while it is a
/// neighbour; along x a lane's neighbours come from the lanes beside it by shuffles. Rows is a
/// multiple of Batch; the strip reads the Rad rows and columns around it. No shared memory, no
/// barrier: warps of a block work independently. float or double, radius 1 to 4. A user update
/// (gpuprims::stencil_update) in place of the weights: each row's whole box is gathered into
/// registers by every lane, then the function runs once per point (it may branch freely).
///
///   const gpuprims::stencil2d_weights<float, 1> w{{{0, 1, 0}, {1, -4, 1}, {0, 1, 0}}};
///   const std::size_t x0 = warp * gpuprims::warp_stencil2d_width<float>;
///   gpuprims::warp_stencil2d<1, gpuprims::stencil_shape::star, 64>(in, pitch, out, pitch, nx,
///                                                                   ny, x0, y0, w, boundary);
template <int Rad, stencil_shape Shape, int Rows, int Batch = 2, class T, class Weights>
__device__ __forceinline__ void warp_stencil2d(const T* in, std::size_t in_pitch, T* out,
                                               std::size_t out_pitch, std::size_t nx,
                                               std::size_t ny, std::size_t x0, std::size_t y0,
                                               const Weights& w, const boundary2d& b) {
  static_assert(Rad >= 1 && Rad <= 4, "warp_stencil2d supports radii 1 to 4");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "warp_stencil2d supports float and double");
  static_assert(Rows >= 1 && Batch >= 1 && Rows % Batch == 0, "Rows is a multiple of Batch");
  static_assert(detail::weights2d_radius<Weights> == Rad, "the weights' radius is Rad");
  detail::stencil2d_strip<Rad, Shape, Rows, Batch>(
      in, in_pitch, out, out_pitch, static_cast<std::int64_t>(nx), static_cast<std::int64_t>(ny),
      static_cast<std::int64_t>(x0), static_cast<std::int64_t>(y0), w, b);
}

}  // namespace gpuprims
