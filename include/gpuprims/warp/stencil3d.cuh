// warp_stencil3d: a strip of a 3D stencil computed by one warp in registers (planes streamed along
// z, neighbours along x by shuffles), from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/strip3d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims {

/// Columns a warp_stencil3d strip covers: 32 lanes x one 16-byte vector (128 floats, 64 doubles).
template <class T>
inline constexpr int warp_stencil3d_width = detail::strip_width<T>;

/// The calling warp (converged, all 32 lanes) writes planes [z0, z1) of out[.][y0, y0 + Rows) x
/// [x0, x0 + warp_stencil3d_width<T>), clipped to the nx x ny grid (z1 <= nz; pitches in
/// elements), with the same values (bits) as apply_stencil3d<Rad, Shape>: out[z][y][x] = sum of
/// w(dz, dy, dx) in[z + dz][y + dy][x + dx] over the shape, positions outside the grid supplied by
/// `b`, each point by the chain detail::stencil3d_point documents. Lane l owns columns x0 + l V ..
/// x0 + l V + V - 1 (V = 16 / sizeof(T)); the warp marches along z, each plane's Rows + 2 Rad rows
/// loaded once (16-byte loads and stores where every row is 16-byte aligned at x0) into registers,
/// the next plane's loads in flight during this one's arithmetic. A star keeps the centre rows of
/// Rad planes and the outputs of Rad planes waiting for the planes above them; a box the outputs of
/// 2 Rad + 1 planes, each arriving plane added to those it reaches. The strip reads the Rad planes,
/// rows and columns around it. No shared memory, no barrier: warps of a block work independently.
/// float or double, radius 1 to 4; registers grow with Rows and Rad (apply_stencil3d's tuning keeps
/// a lane's rows and outputs within 64 32-bit words).
///
///   gpuprims::stencil3d_weights<float, 1> w{};
///   w.w[1][1][1] = 1;  // the identity, as a start
///   const std::size_t x0 = warp * gpuprims::warp_stencil3d_width<float>;
///   gpuprims::warp_stencil3d<1, gpuprims::stencil_shape::star, 4>(
///       in, pitch_y, pitch_z, out, pitch_y, pitch_z, nx, ny, nz, x0, y0, 0, nz, w, boundary);
template <int Rad, stencil_shape Shape, int Rows, class T, class Weights>
__device__ __forceinline__ void warp_stencil3d(
    const T* in, std::size_t in_pitch_y, std::size_t in_pitch_z, T* out, std::size_t out_pitch_y,
    std::size_t out_pitch_z, std::size_t nx, std::size_t ny, std::size_t nz, std::size_t x0,
    std::size_t y0, std::size_t z0, std::size_t z1, const Weights& w, const boundary3d& b) {
  static_assert(Rad >= 1 && Rad <= 4, "warp_stencil3d supports radii 1 to 4");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "warp_stencil3d supports float and double");
  static_assert(Rows >= 1, "a strip has rows");
  static_assert(detail::weights3d_radius<Weights> == Rad, "the weights' radius is Rad");
  detail::stencil3d_strip<Rad, Shape, Rows>(
      in, in_pitch_y, in_pitch_z, out, out_pitch_y, out_pitch_z, static_cast<std::int64_t>(nx),
      static_cast<std::int64_t>(ny), static_cast<std::int64_t>(nz), static_cast<std::int64_t>(x0),
      static_cast<std::int64_t>(y0), Rows, static_cast<std::int64_t>(z0),
      static_cast<std::int64_t>(z1), w, b);
}

}  // namespace gpuprims
